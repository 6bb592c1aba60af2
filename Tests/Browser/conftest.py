"""Shared fixtures for the browser tests: headless Chromium through selenium, the example site
built by the real `cardfeed` binary and served over loopback, and `cardfeed serve` processes."""
import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import sys
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPO = Path(__file__).resolve().parents[2]

# Tests/raw_http.py, shared by both test folders.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
NOW = "1795000000"  # the example site's cards as of a fixed day, as in the end-to-end tests
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOTS = Path(os.environ.get("CARDFEED_SCREENSHOTS", "/tmp/cardfeed-screenshots"))

# Records the client script's events from the very start of every page, before any page script
# runs, and keeps links to the outside world from navigating (the tests run offline).
EVENT_RECORDER = """
window.__cardfeedEvents = [];
["impression", "click", "dismiss", "feeddisplayed"].forEach(function (name) {
  document.addEventListener("cardfeed:" + name, function (event) {
    window.__cardfeedEvents.push({name: name, detail: event.detail,
      target: event.target === document ? "document" : event.target.getAttribute("data-card-id")});
  });
});
window.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[href]");
  if (link && /^(https?:|mailto:|tel:)/.test(link.getAttribute("href")) && link.host !== location.host) event.preventDefault();
}, true);
"""


@pytest.fixture(scope="session")
def cardfeed_bin() -> Path:
    path = os.environ.get("CARDFEED_BIN")
    if not path:
        pytest.fail("set CARDFEED_BIN to the built binary (scripts/test.sh does)")
    return Path(path)


def make_driver(width=1280, height=900, dark=False, console=False):
    """Headless Chromium at that size and scheme; with `console`, it keeps what pages print on
    their console (`driver.get_log("browser")`)."""
    options = webdriver.ChromeOptions()
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--force-color-profile=srgb", f"--window-size={width},{height}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(10)
    set_viewport(driver, width, height)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": EVENT_RECORDER})
    return driver


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


@pytest.fixture()
def driver():
    driver = make_driver()
    try:
        yield driver
    finally:
        driver.quit()


class StaticServer:
    """A plain static file server for a built site: what a host would do, nothing added."""

    def __init__(self, root: Path):
        handler = functools.partial(QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def copy_example_site(target: Path) -> Path:
    shutil.copytree(REPO / "site", target, ignore=shutil.ignore_patterns("public"))
    return target


# A card whose image cannot load (nothing listens on port 9), to see it replaced.
BROKEN_IMAGE_CARD = {
    "id": "test-broken-image", "type": "captioned_image", "created": 1794999000, "viewed": False,
    "categories": ["news"], "title": "A card whose image is gone",
    "description": "Its image cannot load, so the placeholder shows.",
    "image": "http://127.0.0.1:9/gone.png", "aspect_ratio": 2,
}


@pytest.fixture(scope="session")
def example_site_url(cardfeed_bin, tmp_path_factory):
    """The example site (plus one card with a broken image), built and served as static files."""
    site = copy_example_site(tmp_path_factory.mktemp("example") / "site")
    (site / "cards" / "zz-broken-image.json").write_text(json.dumps([BROKEN_IMAGE_CARD]))
    with built_and_served(cardfeed_bin, site) as url:
        yield url


@contextlib.contextmanager
def built_and_served(binary: Path, site: Path, *extra):
    """Builds `site` into its public/ (with `extra` options) and serves that as static files;
    gives the URL, and stops the server at the end."""
    result = subprocess.run([str(binary), "build", str(site), "--now", NOW, "-q", *extra],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    server = StaticServer(site / "public")
    try:
        yield server.url
    finally:
        server.close()


class ServeProcess:
    """`cardfeed serve` on a free loopback port, always stopped at the end."""

    def __init__(self, binary: Path, site: Path, *extra):
        self.lines = []
        self.process = subprocess.Popen(
            [str(binary), "serve", str(site), "--port", "0", "--now", NOW, *map(str, extra)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=site.parent)
        self.errors = []
        threading.Thread(target=self._read, args=(self.process.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.errors), daemon=True).start()
        self.url = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            for line in list(self.lines):
                match = re.search(r"^Serving .* at (http://\S+) \(Ctrl-C to stop\)$", line)
                if match:
                    self.url = match.group(1)
                    return
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"serve did not start:\n{''.join(self.lines)}{''.join(self.errors)}")

    @staticmethod
    def _read(stream, into):
        for line in stream:
            into.append(line)

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def wait_for_output(self, pattern, timeout=15, stream="stdout"):
        lines = self.lines if stream == "stdout" else self.errors
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(re.search(pattern, line) for line in list(lines)):
                return
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} in {stream}:\n{''.join(lines)}")

    def stop(self, timeout=10) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        return self.process.returncode


@pytest.fixture()
def serve(cardfeed_bin, tmp_path):
    """Starts `cardfeed serve` on a copy of the example site; stops it whatever happens."""
    started = []

    def start(site=None, *extra):
        site = site or copy_example_site(tmp_path / "site")
        process = ServeProcess(cardfeed_bin, site, *extra)
        started.append(process)
        return process, site

    yield start
    for process in started:
        process.stop()
