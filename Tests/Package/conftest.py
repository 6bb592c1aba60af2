"""Shared fixtures of the packaging tests: the files scripts/package.sh wrote to dist/, and a
fresh Debian 12 root (debootstrap --variant=minbase bookworm) to install them in, with no Swift."""
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VERSION = (REPO / "VERSION").read_text().strip()
DEB = REPO / "dist" / f"cardfeed_{VERSION}_amd64.deb"
ARCHIVE = REPO / "dist" / f"cardfeed-{VERSION}-linux-x86_64.tar.gz"
# debootstrap's output, kept between runs on one machine (a new clone, as in CI, makes it anew).
ROOT_CACHE = REPO / ".build-package" / "bookworm-minbase.tar"
MIRROR = os.environ.get("CARDFEED_DEBIAN_MIRROR", "http://deb.debian.org/debian")
IN_CI = os.environ.get("CI") == "true"


def unavailable(reason: str):
    """Where the tools of a test are missing: a failure in CI, which must run every test, and a
    skip with the reason elsewhere."""
    (pytest.fail if IN_CI else pytest.skip)(reason)


@pytest.fixture(scope="session")
def dist() -> dict:
    for path in (DEB, ARCHIVE):
        if not path.exists():
            unavailable(f"{path.relative_to(REPO)} is missing: run bash scripts/package.sh first")
    return {"deb": DEB, "archive": ARCHIVE, "version": VERSION}


@pytest.fixture(scope="session")
def root_tarball() -> Path:
    if ROOT_CACHE.exists():
        return ROOT_CACHE
    if os.geteuid() != 0 or not shutil.which("debootstrap"):
        unavailable("the fresh-root tests need root and debootstrap (scripts/setup.sh installs it)")
    build = ROOT_CACHE.parent / "bookworm-minbase"
    shutil.rmtree(build, ignore_errors=True)
    ROOT_CACHE.parent.mkdir(parents=True, exist_ok=True)
    made = subprocess.run(["debootstrap", "--variant=minbase", "bookworm", str(build), MIRROR],
                          capture_output=True, text=True, timeout=1200)
    if made.returncode != 0:
        unavailable(f"debootstrap could not make a Debian 12 root from {MIRROR}:\n{made.stdout[-2000:]}{made.stderr[-2000:]}")
    with tarfile.open(ROOT_CACHE.with_suffix(".partial"), "w") as tar:
        tar.add(build, arcname=".")
    ROOT_CACHE.with_suffix(".partial").rename(ROOT_CACHE)
    shutil.rmtree(build)
    return ROOT_CACHE


class DebianRoot:
    """A fresh Debian 12 root in a folder: commands run in it through chroot, with /proc mounted."""

    def __init__(self, path: Path):
        self.path = path

    def run(self, script: str, check=True, timeout=600) -> subprocess.CompletedProcess:
        env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
               "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}
        done = subprocess.run(["chroot", str(self.path), "/bin/bash", "-euo", "pipefail", "-c", script],
                              capture_output=True, text=True, env=env, timeout=timeout)
        if check and done.returncode != 0:
            pytest.fail(f"in the Debian 12 root, this failed ({done.returncode}):\n{script}\n"
                        f"--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}")
        return done


@pytest.fixture()
def debian_root(root_tarball, tmp_path):
    path = tmp_path / "root"
    path.mkdir()
    subprocess.run(["tar", "-xf", str(root_tarball), "-C", str(path)], check=True)
    shutil.copy("/etc/resolv.conf", path / "etc" / "resolv.conf")
    subprocess.run(["mount", "-t", "proc", "proc", str(path / "proc")], check=True)
    try:
        yield DebianRoot(path)
    finally:
        subprocess.run(["umount", "--lazy", str(path / "proc")])


def search_in_browser(public: Path, word: str) -> list:
    """Serves the built site `public` over loopback, types `word` into its search box in headless
    Chromium (on this machine: the root needs no browser) and gives the results as (title, link)."""
    import functools
    import http.server
    import threading

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(public)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        box = driver.find_element(By.CSS_SELECTOR, ".site-search__input")
        box.send_keys(word)
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "site-search-status").get_attribute("textContent"))
        return [(link.text, link.get_attribute("href")) for link in driver.find_elements(By.CSS_SELECTOR, ".site-search__link")]
    finally:
        driver.quit()
        server.shutdown()
