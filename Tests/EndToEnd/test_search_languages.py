"""Search on a site in several languages (issue 46): one Pagefind index with an index a language
in it, each tree's cards in its language's, so that each tree's search box, which searches the
index of its page's `<html lang>`, finds that tree's cards only."""
import gzip
import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import default_signals
from test_search import ends_soon, sleeping_pagefind, started_runs

NOW = "2026-11-20"

CONFIG = """\
title: Brewline
languages: [en, de, ar]
search: true
"""


def card(id, language, words, category="news"):
    return {"id": id, "type": "text_announcement", "title": f"Title {id}", "description": words,
            "created": 1790000000, "categories": [category], "language": language}


# A word a card alone has: "Espresso" in English, "Kaffeemühle" in German, "قهوة" in Arabic.
CARDS = [
    card("en-1", "en", "Our Espresso blend is back"), card("en-2", "en-GB", "Tea on the terrace", category="social"),
    card("de-1", "de", "Die Kaffeemühle ist wieder da"), card("de-2", "de-AT", "Tee auf der Terrasse"),
    card("ar-1", "ar", "قهوة الصباح"),
]


def make_site(folder: Path, config=CONFIG, cards=CARDS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cardfeed.yml").write_text(config)
    (folder / "cards.json").write_text(json.dumps(cards, ensure_ascii=False))
    return folder


def fragments_by_language(output: Path):
    """{language: {page URL: Pagefind's record}}: Pagefind names each page's fragment file after
    the language of the index that holds it (`fragment/de_1a2b3c4.pf_fragment`)."""
    languages = {}
    for path in (output / "pagefind" / "fragment").iterdir():
        data = gzip.decompress(path.read_bytes())
        assert data.startswith(b"pagefind_dcd")
        record = json.loads(data[len(b"pagefind_dcd"):])
        languages.setdefault(path.name.split("_")[0], {})[record["url"]] = record
    return languages


def files(folder: Path):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built(cardfeed_bin, tmp_path_factory):
    site = make_site(tmp_path_factory.mktemp("search-languages") / "site")
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return site, result


def test_each_language_has_an_index_of_its_trees_cards_only(built):
    site, result = built
    public = site / "public"
    assert "[4/5] Index for search: 5 card pages in " in result.stdout
    entry = json.loads((public / "pagefind" / "pagefind-entry.json").read_text())
    assert list(entry["languages"]) == ["ar", "de", "en"], "one index a language, listed in order"
    assert {tag: language["page_count"] for tag, language in entry["languages"].items()} == {"ar": 1, "de": 2, "en": 2}
    indexed = fragments_by_language(public)
    assert set(indexed) == {"ar", "de", "en"}
    assert set(indexed["de"]) == {"/de/cards/card-de-1.html", "/de/cards/card-de-2.html"}
    assert set(indexed["en"]) == {"/cards/card-en-1.html", "/cards/card-en-2.html"}
    assert set(indexed["ar"]) == {"/ar/cards/card-ar-1.html"}
    assert "Kaffeemühle" in indexed["de"]["/de/cards/card-de-1.html"]["content"]
    # One index, at the root, for the box of every tree; no tree has one of its own.
    assert not (public / "de" / "pagefind").exists() and not (public / "ar" / "pagefind").exists()


def test_every_trees_pages_have_the_box_and_say_the_language_whose_index_it_searches(built):
    site, _ = built
    public = site / "public"
    for page, lang in [("index.html", "en"), ("social/index.html", "en"), ("cards/card-en-1.html", "en"),
                       ("de/index.html", "de"), ("de/cards/card-de-2.html", "de"), ("ar/index.html", "ar"), ("ar/cards/card-ar-1.html", "ar")]:
        text = (public / page).read_text()
        assert f'<html lang="{lang}"' in text, page
        assert 'class="site-search"' in text and 'src="assets/cardfeed-search.js"' in text, page
    # Nothing of the search documents is published, nor left beside the output.
    assert not list(public.rglob("documents")) and not [p for p in site.iterdir() if p.name.startswith(".public.cardfeed-") and p.name != ".public.cardfeed-lock"]


def test_the_index_is_the_same_from_one_build_to_the_next(built, run, tmp_path):
    site, _ = built
    outputs = [tmp_path / f"build-{n}" for n in range(3)]
    for output in outputs:
        result = run("build", site, "--now", NOW, "-o", output, "-q")
        assert result.returncode == 0, result.stderr
    first = files(outputs[0])
    assert any(path.startswith("pagefind/fragment/de_") for path in first)
    for output in outputs[1:]:
        subprocess.run(["diff", "-r", str(outputs[0]), str(output)], check=True)
        assert files(output) == first


def test_with_the_default_language_in_its_folder_each_index_holds_its_trees_cards(run, tmp_path):
    site = make_site(tmp_path / "site", config=CONFIG + "default_language_folder: true\n")
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    indexed = fragments_by_language(site / "public")
    assert set(indexed["en"]) == {"/en/cards/card-en-1.html", "/en/cards/card-en-2.html"}
    assert set(indexed["de"]) == {"/de/cards/card-de-1.html", "/de/cards/card-de-2.html"}
    assert 'class="site-search"' in (site / "public" / "en" / "index.html").read_text()


def test_a_language_without_cards_has_no_search_box(run, tmp_path):
    """Pagefind answers a language it has no index for with its largest language's: the Arabic
    box would find the English cards. A tree without cards has no box, as a site without any has none."""
    site = make_site(tmp_path / "site", cards=[c for c in CARDS if not c["id"].startswith("ar-")])
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    public = site / "public"
    assert 'class="site-search"' not in (public / "ar" / "index.html").read_text()
    assert 'class="site-search"' in (public / "de" / "index.html").read_text()
    assert list(json.loads((public / "pagefind" / "pagefind-entry.json").read_text())["languages"]) == ["de", "en"]


def test_a_sites_own_search_document_without_the_trees_language_is_an_error_at_the_template(run, tmp_path):
    """A document in another language than its tree's would be found by no box: the build fails,
    at the site's own template, which is what to change, and check says so too."""
    site = make_site(tmp_path / "site")
    builtin = (Path(__file__).parents[2] / "templates" / "search_document.mustache").read_text()
    (site / "templates").mkdir()
    (site / "templates" / "search_document.mustache").write_text(builtin.replace('lang="{{lang}}"', 'lang="en"'))
    for command in ["build", "check"]:
        result = run(command, site, "--now", NOW)
        assert result.returncode == 1
        assert re.search(r'^error: site/templates/search_document\.mustache: the search document of (de|ar)/cards/card-\S+\.html is in "en" \(its <html lang>\),'
                         r' where its language\'s pages are in "(de|ar)"; keep <html lang="\{\{lang\}\}">', result.stderr, re.M), result.stderr


def test_check_with_search_and_languages_passes(run, tmp_path):
    site = make_site(tmp_path / "site", config=CONFIG.replace("search: true\n", ""))
    result = run("check", site, "--search", "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert "per language" not in result.stderr


def test_serve_updates_every_languages_index_live(running, tmp_path):
    site = make_site(tmp_path / "site")
    serve = running("serve", site, "--port", "0", "--now", NOW)
    port = int(serve.wait_for(r"^Serving .* at http://127\.0\.0\.1:(\d+)/").group(1))
    serve.wait_for(r"^Indexed 5 cards for search in ")

    def page_counts():
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/pagefind/pagefind-entry.json", timeout=10) as answer:
            return {tag: language["page_count"] for tag, language in json.loads(answer.read())["languages"].items()}

    assert page_counts() == {"ar": 1, "de": 2, "en": 2}
    (site / "cards.json").write_text(json.dumps(CARDS + [card("de-3", "de", "Neue Bohnen"), card("ar-2", "ar", "شاي")], ensure_ascii=False))
    serve.wait_for(r"^Indexed 7 cards for search in ")
    assert page_counts() == {"ar": 2, "de": 3, "en": 2}


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_build_stopped_while_it_indexes_every_language_stops_pagefind_and_leaves_nothing(cardfeed_bin, run, tmp_path, how):
    site = make_site(tmp_path / "site")
    assert run("build", site, "--now", NOW).returncode == 0
    before = files(site / "public")
    pagefind, log = sleeping_pagefind(tmp_path)
    # Without the cache, which holds the index the first build made (see test_search_cache.py).
    build = subprocess.Popen([str(cardfeed_bin), "build", str(site), "--now", NOW, "--no-cache"], cwd=tmp_path,
                             env={**os.environ, "PAGEFIND": str(pagefind)}, start_new_session=True, preexec_fn=default_signals,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        [indexing] = started_runs(log, 1)
        started = time.monotonic()
        build.send_signal(how)
        assert build.wait(timeout=20) == -how
        assert ends_soon(indexing, timeout=1 + (time.monotonic() - started)), "Pagefind outlived the build by more than a second"
    finally:
        build.kill()
        build.wait()
    assert files(site / "public") == before
    assert not [p.name for p in site.iterdir() if p.name.startswith(".public.cardfeed-") and p.name != ".public.cardfeed-lock"]
