"""A cache that cannot be used is not used (issue 56, items 3 and 5): truncated, garbage,
unreadable, from another CardFeed version, or another site's; two builds at once with one cache;
a build stopped half way. Whatever the cache holds, the build succeeds, says at most one `note:`
about the cache (a line of its summary, which --quiet leaves out; no error, no warning of its
own), and its output is byte-identical to a build without the cache.

Without the cache engine each build here is a full build and these hold as they must; once the
engine keeps a cache, the same tests check it. Whether it is there is probed once (`engine`):
with it, a cache that cannot be used must give one note; the test of another version's cache,
which needs a cache for the other version to find, is skipped without it."""
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from cache_sites import CacheInterface, differences, engine_kept_something, notes, without_notes
from conftest import default_signals

NOW = "1800000000"
NOBODY = 65534


@pytest.fixture(scope="module")
def interface(cardfeed_bin) -> CacheInterface:
    return CacheInterface.of(cardfeed_bin)


def cards(count: int, edited: str = "") -> list[dict]:
    return [{"id": f"c{n}", "type": "short_news", "created": 1_790_000_000 + n, "title": f"Card {n}{edited}",
             "description": f"Card **{n}**, {'with more words ' * 8}", "image": f"https://cdn.example.com/{n}.png",
             "image_alt": "", "categories": [["news", "social", "advertising"][n % 3]]} for n in range(count)]


def make_site(folder: Path, count: int = 30, edited: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.json").write_text(json.dumps(cards(count, edited)))
    (folder / "cardfeed.yml").write_text("title: Robust\nbase_url: https://robust.example/\npage_size: 5\n")
    return folder


class Builds:
    """`cardfeed build` of one site, from a cache (CACHE, or SITE/.cardfeed-cache) or without."""

    def __init__(self, binary: Path, interface: CacheInterface, cache: Path | None, user: int | None = None):
        self.binary, self.interface, self.cache, self.user = binary, interface, cache, user

    def command(self, site: Path, output: Path, cached: bool = True) -> list[str]:
        options = self.interface.cached(self.cache) if cached else self.interface.cold()
        as_user = ["setpriv", f"--reuid={self.user}", f"--regid={self.user}", "--clear-groups"] if self.user else []
        return [*as_user, str(self.binary), "build", str(site), "--output", str(output), "--now", NOW, *options]

    def run(self, site: Path, output: Path, cached: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(site, output, cached), capture_output=True, text=True, timeout=120)

    def cache_of(self, site: Path) -> Path:
        return self.cache if self.cache is not None and self.interface.cache_dir else site / ".cardfeed-cache"

    def assert_as_without_cache(self, site: Path, output: Path, most_notes: int = 1) -> subprocess.CompletedProcess:
        """Builds `site` from the cache into `output`, and without it beside; the same bytes, the
        same warnings, at most `most_notes` notes about the cache. Returns the cached build."""
        cached = self.run(site, output)
        cold_output = output.with_name(output.name + "-without-cache")
        shutil.rmtree(cold_output, ignore_errors=True)
        cold = self.run(site, cold_output, cached=False)
        assert cold.returncode == 0, cold.stderr
        assert cached.returncode == 0, f"the build from the cache failed:\n{cached.stderr}"
        assert not differences(output, cold_output), differences(output, cold_output)
        assert without_notes(cached.stderr).replace(str(output), "OUT") == cold.stderr.replace(str(cold_output), "OUT")
        assert len(said(cached)) <= most_notes, cached.stdout + cached.stderr
        return cached


@pytest.fixture()
def builds(cardfeed_bin, interface, tmp_path) -> Builds:
    return Builds(cardfeed_bin, interface, tmp_path / "cache")


@pytest.fixture(scope="module")
def engine(cardfeed_bin, interface, tmp_path_factory) -> bool:
    """Whether a build keeps a cache (the engine is there): then a cache it cannot use must
    give a note."""
    folder = tmp_path_factory.mktemp("engine")
    site = make_site(folder / "site", 3)
    probe = Builds(cardfeed_bin, interface, folder / "cache")
    assert probe.run(site, folder / "out").returncode == 0
    return engine_kept_something(probe.cache_of(site))


def said(build: subprocess.CompletedProcess) -> list[str]:
    """The build's notes, wherever it prints them (the summary, on standard output)."""
    return notes(build.stdout + "\n" + build.stderr)


def every_file(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "CACHEDIR.TAG")


def damage(cache: Path, how: str, rng: random.Random):
    if how == "a file in the folder's place":
        shutil.rmtree(cache, ignore_errors=True)
        cache.write_text("not a cache\n")
        return
    for path in every_file(cache):
        size = path.stat().st_size
        if how == "truncated":
            with open(path, "r+b") as file:
                file.truncate(size // 2)
        elif how == "emptied":
            path.write_bytes(b"")
        elif how == "garbage":
            path.write_bytes(rng.randbytes(max(size, 64)))
        elif how == "folders in its files' place":  # unreadable even to root
            path.unlink()
            path.mkdir()


@pytest.mark.parametrize("how", ["truncated", "emptied", "garbage", "folders in its files' place", "a file in the folder's place"])
def test_a_damaged_cache_is_not_used(builds, engine, tmp_path, how):
    site = make_site(tmp_path / "site")
    builds.assert_as_without_cache(site, tmp_path / "out")
    cache = builds.cache_of(site)
    damage(cache, how, random.Random(how))
    make_site(site, edited=" (edited)")  # every card changed: a cache used as it is would show the old ones
    second = builds.assert_as_without_cache(site, tmp_path / "out")
    if engine:
        assert len(said(second)) == 1, f"no note that the {how} cache was not used:\n{second.stdout}{second.stderr}"
    if how == "a file in the folder's place":
        cache.unlink()
    make_site(site)
    builds.assert_as_without_cache(site, tmp_path / "out")  # and the next build is right too


def test_pages_of_the_output_edited_by_hand_are_made_again(builds, tmp_path):
    """A page is kept from the last build only when its file is as that build left it (its
    inode, size and modification time): one edited in place, replaced, removed or made a folder
    is made again, in a build that changes no card and in one that changes them all."""
    site = make_site(tmp_path / "site")
    out = tmp_path / "out"
    builds.assert_as_without_cache(site, out)
    builds.assert_as_without_cache(site, out)  # the output before last is now in the cache too
    for edited in ["", " (edited)"]:
        pages = sorted(out.glob("cards/*.html"))
        assert len(pages) >= 4, sorted(p.name for p in out.iterdir())
        in_place, replaced, removed, folder = pages[:4]
        with open(in_place, "r+b") as file:  # the same size and inode, other bytes
            file.write(b"X")
        replaced.unlink()
        replaced.write_text("a page made by hand")
        removed.unlink()
        folder.unlink()
        folder.mkdir()
        make_site(site, edited=edited)
        builds.assert_as_without_cache(site, out)


def test_the_old_output_the_cache_keeps_is_put_right_whatever_was_done_to_it(builds, engine, tmp_path):
    """A build with a cache makes its output in the output before last, which waits in the cache
    (`previous-output`): a file there added, removed, replaced, made a folder, or a folder made a
    file, is put right, and the output never shows it."""
    site = make_site(tmp_path / "site")
    out = tmp_path / "out"
    builds.assert_as_without_cache(site, out)
    builds.assert_as_without_cache(site, out)  # the output before last is now in the cache
    twin = builds.cache_of(site) / "previous-output"
    if not engine:
        pytest.skip("no cache engine: nothing is kept")
    assert (twin / "index.html").is_file(), sorted(p.name for p in builds.cache_of(site).iterdir())
    (twin / "stray.html").write_text("not the site's")
    (twin / "stray-folder" / "inner").mkdir(parents=True)
    (twin / "index.html").unlink()
    replaced = next(twin.glob("news/*.html"))
    replaced.unlink()
    replaced.write_text("a page made by hand")
    page_two = twin / "page-2.html"
    if page_two.exists():
        page_two.unlink()
        page_two.mkdir()
    assets = twin / "assets"
    shutil.rmtree(assets)
    assets.write_text("a file where a folder was")
    make_site(site, edited=" (edited)")
    builds.assert_as_without_cache(site, out)
    make_site(site)
    builds.assert_as_without_cache(site, out)


def test_one_cache_for_two_sites(builds, tmp_path):
    """Another site's cache (one --cache-dir for two sites, or a site folder copied with its
    cache) is not taken for this site's."""
    first, second = make_site(tmp_path / "first"), make_site(tmp_path / "second", edited=" (second site)")
    for round in range(2):
        builds.assert_as_without_cache(first, tmp_path / "first-out")
        builds.assert_as_without_cache(second, tmp_path / "second-out")
    copied = tmp_path / "copied"
    shutil.copytree(second, copied)
    make_site(copied, edited=" (copied)")
    Builds(builds.binary, builds.interface, None).assert_as_without_cache(copied, tmp_path / "copied-out")


def patched_version(binary: Path, folder: Path) -> Path:
    """A copy of `binary` that says it is another version: VERSION is built into the binary as
    base64 (BuiltinFiles), and changed there, the copy is what another release would be to the
    cache, and writes that version into its pages."""
    data = binary.read_bytes()
    import base64
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.strip()
    old = base64.b64encode((version + "\n").encode())
    other = version[:-1] + ("1" if version[-1] != "1" else "2")
    new = base64.b64encode((other + "\n").encode())
    assert len(old) == len(new) and data.count(old) == 1, f"VERSION ({version}) is not built into {binary} as base64 once"
    copy = folder / "cardfeed-other-version"
    copy.write_bytes(data.replace(old, new))
    copy.chmod(0o755)
    assert subprocess.run([str(copy), "--version"], capture_output=True, text=True).stdout.strip() == other
    return copy


def test_a_cache_from_another_version_is_not_used(builds, engine, tmp_path):
    if not engine:
        pytest.skip("no cache engine yet: the build kept nothing for another version to find")
    site = make_site(tmp_path / "site")
    builds.assert_as_without_cache(site, tmp_path / "out")
    other = Builds(patched_version(builds.binary, tmp_path), builds.interface, builds.cache)
    make_site(site, edited=" (edited)")
    built = other.assert_as_without_cache(site, tmp_path / "out")
    assert len(said(built)) == 1, f"no note that the cache is another version's:\n{built.stdout}{built.stderr}"
    builds.assert_as_without_cache(site, tmp_path / "out")  # and back to this version


@pytest.fixture()
def nobody_folder():
    """A folder the user `nobody` owns, for builds run as nobody: root reads and writes a folder
    whatever its mode says (CI runs as root), so a folder unreadable to a build needs a build
    that is not root."""
    if os.geteuid() != 0:
        pytest.skip("not root: the test runs builds as nobody, which needs root")
    if not shutil.which("setpriv"):
        pytest.skip("setpriv (util-linux) is missing")
    folder = Path(tempfile.mkdtemp(prefix="cardfeed-cache-"))
    folder.chmod(0o755)
    os.chown(folder, NOBODY, NOBODY)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def as_nobody(path: Path):
    for item in [path, *path.rglob("*")]:
        os.chown(item, NOBODY, NOBODY)


def test_an_unreadable_cache_is_not_used(cardfeed_bin, interface, engine, nobody_folder):
    builds = Builds(cardfeed_bin, interface, nobody_folder / "cache", user=NOBODY)
    site = make_site(nobody_folder / "site")
    as_nobody(site)
    builds.assert_as_without_cache(site, nobody_folder / "out")
    cache = builds.cache_of(site)
    for path in [cache, *cache.rglob("*")] if cache.exists() else []:
        path.chmod(0)
    make_site(site, edited=" (edited)")
    built = builds.assert_as_without_cache(site, nobody_folder / "out")
    if engine:
        assert len(said(built)) == 1, f"no note that the cache was unreadable:\n{built.stdout}{built.stderr}"


def test_a_site_folder_that_cannot_hold_a_cache(cardfeed_bin, interface, nobody_folder):
    """A read-only site folder (root's, built by nobody): the default cache cannot be written;
    the build goes on, with at most a note."""
    builds = Builds(cardfeed_bin, interface, None, user=NOBODY)
    site = make_site(nobody_folder / "site")
    os.chown(site, 0, 0)
    site.chmod(0o755)
    for round in range(2):
        builds.assert_as_without_cache(site, nobody_folder / "out")
        assert not (site / ".cardfeed-cache").exists()


@pytest.mark.slow
def test_two_builds_at_once_with_one_cache(builds, tmp_path):
    """Builds of one site and of another into their own outputs, two at a time, with one cache:
    neither reads what the other half wrote."""
    sites = [make_site(tmp_path / "one", 200), make_site(tmp_path / "other", 200, edited=" (other)")]
    builds.assert_as_without_cache(sites[0], tmp_path / "out-0")
    for round, pair in enumerate([(sites[0], sites[0]), (sites[0], sites[1]), (sites[1], sites[0])]):
        make_site(sites[0], 200, edited=f" (round {round})")
        outputs = [tmp_path / f"round-{round}-{n}" for n in range(2)]
        started = [subprocess.Popen(builds.command(site, output), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for site, output in zip(pair, outputs)]
        for process, site, output in zip(started, pair, outputs):
            stdout, stderr = process.communicate(timeout=120)
            assert process.returncode == 0, stderr
            assert len(notes(stdout + stderr)) <= 1, stdout + stderr
            cold = builds.run(site, output.with_name(output.name + "-without-cache"), cached=False)
            assert cold.returncode == 0, cold.stderr
            assert not differences(output, output.with_name(output.name + "-without-cache"))
    for site in sites:
        builds.assert_as_without_cache(site, tmp_path / f"after-{site.name}")


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_a_build_stopped_half_way_leaves_a_cache_that_is_right(builds, tmp_path, stop):
    """Stopped as it renders or writes, the build leaves the cache as it was or usable: the next
    build from it is right."""
    count = 300
    site = make_site(tmp_path / "site", count)
    start = time.monotonic()
    builds.assert_as_without_cache(site, tmp_path / "out")
    seconds = (time.monotonic() - start) / 2  # a build from the cache and one without
    stopped = 0
    for round, share in enumerate([0.2, 0.5, 0.8]):
        make_site(site, count, edited=f" (round {round})")
        process = subprocess.Popen(builds.command(site, tmp_path / "out"), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, preexec_fn=default_signals)
        time.sleep(seconds * share)
        process.send_signal(stop)
        stopped += process.wait(timeout=60) != 0
        if round % 2:  # another change before the next build, or the same cards again
            make_site(site, count, edited=f" (after round {round})")
        builds.assert_as_without_cache(site, tmp_path / "out")
    assert stopped, "no build was stopped before it ended: the site is too small for this machine"
