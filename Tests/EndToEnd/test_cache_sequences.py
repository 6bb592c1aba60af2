"""Never a wrong site (issue 56, item 3): random sequences of the edits a site owner makes (cards
added, changed, removed, expired by --now; a card type's or the page template, the stylesheet,
cardfeed.yml's settings, static/, languages and strings, placements, search, its index in
parts), each edit built
from the cache (the same cache through the sequence) and without it into a fresh folder, and
the two outputs compared byte for byte, every file, nothing ignored: two builds without the
cache are byte-identical (the first test here), so a build from the cache must be too.

A failing sequence names its seed; replay it alone with
    CARDFEED_CACHE_SEED=N python3 -m pytest -q Tests/EndToEnd/test_cache_sequences.py
(its site and outputs are kept in pytest's temporary folder)."""
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from cache_sites import EDITS, VARIANTS, CacheInterface, Site, apply_edit, differences, without_notes

# Some 1,300 builds of small sites (about 7 a sequence): seconds of work, for the full run only.
pytestmark = pytest.mark.slow

SEQUENCES = 200


def seeds() -> list[int]:
    chosen = os.environ.get("CARDFEED_CACHE_SEED")
    return [int(chosen)] if chosen else list(range(1, SEQUENCES + 1))


@pytest.fixture(scope="module")
def interface(cardfeed_bin) -> CacheInterface:
    return CacheInterface.of(cardfeed_bin)


def build(binary: Path, site: Site, output: Path, options: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command(binary, site, output, options), capture_output=True, text=True, timeout=120)


def command(binary: Path, site: Site, output: Path, options: list[str]) -> list[str]:
    return [str(binary), "build", str(site.root), "--output", str(output), *site.build_args(), *options]


def build_both(binary: Path, site: Site, cached_output: Path, cached_options: list[str], cold_output: Path,
               cold_options: list[str]) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """The build from the cache and the one without it, of the same site at the same time (one
    a core: the sequences are some 1,300 builds); they share nothing but the site's files."""
    started = [subprocess.Popen(command(binary, site, output, options), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
               for output, options in [(cached_output, cached_options), (cold_output, cold_options)]]
    results = []
    for process in started:
        out, err = process.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return results[0], results[1]


def same_messages(cached: subprocess.CompletedProcess, cached_output: Path, cold: subprocess.CompletedProcess,
                  cold_output: Path) -> bool:
    """The same warnings from both builds (a build from the cache may add a note about it)."""
    return without_notes(cached.stderr).replace(str(cached_output), "OUTPUT") == \
        without_notes(cold.stderr).replace(str(cold_output), "OUTPUT")


@pytest.mark.parametrize("variant", VARIANTS + ["search"])
def test_two_builds_without_the_cache_are_byte_identical(cardfeed_bin, interface, tmp_path, variant):
    """The premise of the comparison below: nothing in an output varies from build to build
    (not the time, not the output's path, not Pagefind's order), so nothing is ignored."""
    site = Site.make(tmp_path / "site", random.Random(variant), "card pages" if variant == "search" else variant, 30)
    if variant == "search":
        site.config["search"] = True
    site.write()
    first = build(cardfeed_bin, site, tmp_path / "first", interface.cold())
    second = build(cardfeed_bin, site, tmp_path / "second", interface.cold())
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert not differences(tmp_path / "first", tmp_path / "second")
    assert same_messages(first, tmp_path / "first", second, tmp_path / "second")


@pytest.mark.parametrize("seed", seeds())
def test_a_build_from_the_cache_is_the_build_without_it(cardfeed_bin, interface, tmp_path, seed, monkeypatch):
    rng = random.Random(seed)
    # Half the sequences cut the search index into parts of 8 cards (SearchParts), some kept
    # from the cache and some made again as cards change.
    if seed % 2:
        monkeypatch.setenv("CARDFEED_SEARCH_PART_SIZE", "8")
    variant = VARIANTS[seed % len(VARIANTS)]
    count = rng.randint(20, 40)
    site = Site.make(tmp_path / "site", rng, variant, count)
    site.write()
    # The default cache (SITE/.cardfeed-cache, inside the site folder) or one of its own.
    cache = None if rng.random() < 0.3 else tmp_path / "cache"
    history = [f"{variant}, {count} cards, cache in {cache or 'SITE/.cardfeed-cache'}"]
    output = tmp_path / "cached"
    edits, weights = zip(*EDITS)
    for step in range(rng.randint(2, 4) + 1):
        if step:
            history.append(apply_edit(site, rng.choices(edits, weights)[0]))
            if rng.random() < 0.2:  # as CI has it: the cache restored, the output made anew
                output = tmp_path / f"cached-{step}"
                history.append(f"output now {output.name}, new")
            if rng.random() < 0.04:
                shutil.rmtree(cache or site.root / ".cardfeed-cache", ignore_errors=True)
                history.append("cache removed")
        cold_output = tmp_path / f"cold-{step}"
        if step == 0 and rng.random() < 0.75:  # the first build, with no cache yet: a quarter are compared
            first = build(cardfeed_bin, site, output, interface.cached(cache))
            assert first.returncode == 0, f"seed {seed}: {history[0]}\n{first.stderr}"
            continue
        cached, cold = build_both(cardfeed_bin, site, output, interface.cached(cache), cold_output, interface.cold())
        context = (f"seed {seed} (replay: CARDFEED_CACHE_SEED={seed} python3 -m pytest -q "
                   f"Tests/EndToEnd/test_cache_sequences.py), after:\n  " + "\n  ".join(history) + "\n")
        assert cold.returncode == 0, context + cold.stderr
        assert cached.returncode == 0, context + cached.stderr
        difference = differences(output, cold_output)
        assert not difference, context + f"{output} and {cold_output} differ:\n" + difference
        assert same_messages(cached, output, cold, cold_output), \
            context + f"other warnings from the cache:\n{cached.stderr}\nthan without it:\n{cold.stderr}"
        shutil.rmtree(cold_output)
