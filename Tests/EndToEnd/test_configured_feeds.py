"""Feeds a site defines in cardfeed.yml (docs/customising.md, "Feeds"), through the binary: a
Content Cards sync made of the Braze fixtures, grouped by an extra as apps do; a card in two
feeds; hide_empty_feeds; the feed files and the sitemap; errors with line and column; serve."""
import json
import re
import time
import urllib.request
from pathlib import Path

import feedparser
import jsonschema
import pytest

from conftest import REPO

FIXTURES = REPO / "Tests" / "CardFeedBuildTests" / "Fixtures" / "braze"
SCHEMA = json.loads((Path(__file__).parent / "jsonfeed-1.1.schema.json").read_text())
NOW = "1790000000"

FEEDS_YML = """\
title: Inbox
base_url: https://inbox.example/
feeds:
  - slug: all
  - slug: offers
    title: Offers
    extras: {feed: offers}
  - slug: deals
    title: Deals and offers
    extras: {feed: [offers, deals]}
  - slug: social
hide_empty_feeds: true
"""


def fixture(name, **changes):
    card = json.loads((FIXTURES / name).read_text())
    card.update(changes)
    return card


def sync():
    """The Content Cards fixtures as one sync, each given a `feed` extra and no expiry (the
    fixtures' dates have passed)."""
    makecontentcard = fixture("flutter-contentcard-makecontentcard-defaults.json", ea=-1, e={"feed": "offers"})
    # A minute older than makecontentcard's card, so that no two cards tie.
    short_news = fixture("flutter-contentcard-short-news.json", ea=-1, ca=1234567830)
    short_news["e"]["feed"] = "deals"
    oncohealth = fixture("thirdparty-oncohealth-web-contentcard-short-news.json", ea=-1, u="https://oncohealth.example/")
    oncohealth["e"]["feed"] = "offers"
    control = fixture("flutter-contentcard-control.json", id="control-offer", e={"feed": "offers"})
    plain = {"id": "plain", "tp": "short_news", "ca": 1234567000, "ea": -1, "tt": "No feed extra", "ds": "Only in all", "e": {}}
    return {"cards": [makecontentcard, short_news, oncohealth, control, plain], "full_sync": True}


# The fixtures' ids, newest first.
OFFER_IDS = ["NjU3MDVhM2U0MjAxMzMwMDRiMzBmYzdjXyRfY2M9ZjM2NDNmYmYtMjYzZS1hZWQ5LWUyM3QtMDlkY2Y4ODQ1YjUwJm12PTY1NzA1YTNlNDIwMTMzMDA0YjMwZmM4MyZwaT1jbXA=", "test_id"]
DEAL_IDS = ["someID="]


def page_ids(page: Path):
    return [id.replace("&#61;", "=") for id in re.findall(r'<article class="card[^"]*" id="[^"]*" data-card-id="([^"]*)"', page.read_text())]


NAV = re.compile(r'<a class="feed-nav__link" href="[^"]*"(?: aria-current="page")?>([^<]*)</a>')


def nav(page: Path):
    return NAV.findall(page.read_text())


def older_pages(out: Path, folder: str):
    """A feed's front page, then each page its "Older" links lead to."""
    pages = [out / folder / "index.html"]
    while link := re.search(r'href="([^"]*)" rel="next"', pages[-1].read_text()):
        pages.append(out / link.group(1))  # relative to the site's root, the pages' <base>
    return pages


def content_cards_site(root: Path, yml=FEEDS_YML) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "cards.json").write_text(json.dumps(sync(), indent=1))
    (root / "cardfeed.yml").write_text(yml)
    return root


@pytest.fixture()
def built(run, tmp_path):
    site = content_cards_site(tmp_path / "site")
    out = tmp_path / "out"
    result = run("build", site, "-o", out, "--now", NOW)
    assert result.returncode == 0, result.stderr
    return out, result


def test_a_content_cards_sync_is_grouped_by_its_feed_extra(built):
    out, result = built
    assert page_ids(out / "index.html") == OFFER_IDS + DEAL_IDS + ["plain"]
    assert page_ids(out / "offers" / "index.html") == OFFER_IDS
    # A card in two feeds: the offers are also deals.
    assert page_ids(out / "deals" / "index.html") == OFFER_IDS + DEAL_IDS
    assert not (out / "uncategorized").exists() and not (out / "news").exists(), "only the feeds the site defines"
    assert "Feeds: all 4, offers 2, deals 3, social 0; 4 pages." in result.stdout
    assert 'data-card-id="control-offer"' not in (out / "offers" / "index.html").read_text()
    offers = (out / "offers" / "index.html").read_text()
    assert '<body class="feed-offers"' in offers
    assert "<title>Offers · Inbox</title>" in offers
    assert '<h1 class="feed__title">Offers</h1>' in offers


def test_the_navigation_follows_the_order_and_leaves_empty_feeds_out_but_their_pages_exist(built):
    out, result = built
    for page in ["index.html", "offers/index.html", "deals/index.html"]:
        assert nav(out / page) == ["All", "Offers", "Deals and offers"], page
    social = (out / "social" / "index.html").read_text()
    assert "We have no updates. Please check again later." in social
    # On its own page the empty feed is in the navigation, as the current one.
    assert nav(out / "social" / "index.html") == ["All", "Offers", "Deals and offers", "Social"]
    assert re.search(r'href="social/index.html" aria-current="page"', social)
    warning = 'cardfeed.yml:11:5: field "feeds[4]": the feed "social" matches no card: no card has the category social'
    assert warning in result.stderr


def test_without_hide_empty_feeds_every_feed_is_in_the_navigation(run, tmp_path):
    site = content_cards_site(tmp_path / "site", FEEDS_YML.replace("hide_empty_feeds: true\n", ""))
    assert run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q").returncode == 0
    assert nav(tmp_path / "out" / "index.html") == ["All", "Offers", "Deals and offers", "Social"]
    assert "<loc>https://inbox.example/social/</loc>" in (tmp_path / "out" / "sitemap.xml").read_text()


@pytest.mark.parametrize("feed", ["", "offers/", "deals/", "social/"])
def test_every_feed_has_atom_and_json_files_with_the_cards_of_its_front_page(built, feed):
    out, _ = built
    parsed = feedparser.parse((out / feed / "feed.xml").read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    ids = page_ids(out / feed / "index.html")
    anchors = re.findall(r'<article class="card[^"]*" id="([^"]*)"', (out / feed / "index.html").read_text())
    assert [entry.id.split("#")[1] for entry in parsed.entries] == anchors
    assert len(anchors) == {"": 4, "offers/": 2, "deals/": 3, "social/": 0}[feed]
    document = json.loads((out / feed / "feed.json").read_text())
    jsonschema.validate(document, SCHEMA)
    assert len(document["items"]) == len(ids)
    assert document["feed_url"] == f"https://inbox.example/{feed}feed.json"
    assert document["title"] == {"": "Inbox", "offers/": "Offers · Inbox", "deals/": "Deals and offers · Inbox", "social/": "Social · Inbox"}[feed]


def test_the_sitemap_lists_the_feeds_in_the_navigation(built):
    out, _ = built
    sitemap = (out / "sitemap.xml").read_text()
    locs = re.findall(r"<loc>([^<]*)</loc>", sitemap)
    pages = [loc for loc in locs if "/cards/" not in loc]
    assert pages == ["https://inbox.example/", "https://inbox.example/offers/", "https://inbox.example/deals/"]
    # Then each shown card's own page, in display order.
    anchors = re.findall(r'<article class="card[^"]*" id="([^"]*)"', (out / "index.html").read_text())
    assert locs[len(pages):] == [f"https://inbox.example/cards/{anchor}.html" for anchor in anchors]


def test_pages_and_permalinks_of_configured_feeds(run, tmp_path):
    # No feed shows every card: the first is the front page, a card of no feed is not shown,
    # and without card pages a card's permalink is its place in the first feed that shows it.
    yml = "feeds:\n  - slug: offers\n    title: Offers\n    extras: {feed: offers}\n  - slug: deals\n    title: Deals\n    extras: {feed: [deals, offers]}\ncard_pages: false\n"
    site = content_cards_site(tmp_path / "site", yml)
    out = tmp_path / "out"
    result = run("build", site, "-o", out, "--now", NOW, "--page-size", "1")
    assert result.returncode == 0, result.stderr
    assert 'in no feed: "plain"' in result.stdout
    # One card a page: each card ends its own archive page, named after it.
    offers = older_pages(out, "")
    assert [page_ids(page) for page in offers] == [OFFER_IDS[:1], OFFER_IDS[1:]]
    assert offers[1] == out / "page-test_id.html"
    deals = older_pages(out, "deals")
    assert [page_ids(page) for page in deals] == [OFFER_IDS[:1], OFFER_IDS[1:], DEAL_IDS]
    assert deals[1] == out / "deals" / "page-test_id.html"
    assert re.fullmatch(r"page-some~i~d--[0-9a-f]+\.html", deals[2].name), "capitals written ~ and the small letter"
    assert re.search(r'class="card__permalink" href="page-test_id.html#card-test_id"', deals[1].read_text()), "an offer's home is the offers feed, the front page's"
    assert re.search(rf'class="card__permalink" href="deals/{deals[2].name}#card-some', deals[2].read_text()), "a deal's home is the deals feed"
    assert "<title>Offers · CardFeed</title>" not in (out / "index.html").read_text(), "the front page has the site's title"


def test_titles_are_localised_through_the_strings_tables(run, tmp_path):
    site = content_cards_site(tmp_path / "site", FEEDS_YML.replace("  - slug: social\n", "  - slug: news\n"))
    (site / "strings").mkdir()
    (site / "strings" / "de.json").write_text(json.dumps({"feedOffers": "Angebote"}))
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "--locale", "de", "-q")
    assert result.returncode == 0, result.stderr
    assert "unknown string" not in result.stderr
    page = tmp_path / "out" / "news" / "index.html"
    # The strings file's title, cardfeed.yml's where it has none, the built-in German for news.
    assert nav(page) == ["Alle", "Angebote", "Deals and offers", "Neuigkeiten"]


ERRORS_YML = """\
feeds:
  - slug: Summer Deals
    title: Summer
  - slug: offers
    titel: Offers
  - slug: deals
    title: Deals
    category: [newz]
  - slug: deals
    title: More deals
  - slug: assets
    title: Assets
  - slug: members
    extras: {audience: members}
hide_empty_feeds: sometimes
"""


def test_errors_in_the_definitions_name_line_column_and_the_key_meant(run, tmp_path):
    site = content_cards_site(tmp_path / "site", ERRORS_YML)
    out = tmp_path / "out"
    result = run("build", site, "-o", out, "--now", NOW)
    assert result.returncode != 0
    assert not out.exists(), "nothing written"
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    expected = [
        'cardfeed.yml:2:11: field "feeds[1].slug": "Summer Deals" is not a slug (did you mean "summer-deals"?)',
        'cardfeed.yml:5:5: field "feeds[2].titel": unknown key (did you mean "title"?); known keys here: slug, title, category, extras',
        'cardfeed.yml:4:5: field "feeds[2]": has no title',
        'cardfeed.yml:8:15: field "feeds[3].category": unknown category "newz" (did you mean "news"?)',
        'cardfeed.yml:9:11: field "feeds[4].slug": "deals" is also the slug of feeds[3] (line 6): each feed needs a folder of its own',
        'cardfeed.yml:11:11: field "feeds[5].slug": "assets" is taken',
        'cardfeed.yml:13:5: field "feeds[6]": has no title: give the text the navigation shows, such as title: Offers',
        'cardfeed.yml:15:19: field "hide_empty_feeds": expected true or false',
    ]
    for message in expected:
        assert any(message in line for line in errors), f"{message}\nnot in\n" + "\n".join(errors)
    assert len(errors) == len(expected) + 1, errors  # and the summary line
    check = run("check", site, "--now", NOW, "--diagnostics", "json")
    assert check.returncode != 0
    first = json.loads(check.stderr.splitlines()[0])
    assert (first["file"].endswith("cardfeed.yml"), first["line"], first["column"], first["field"]) == (True, 2, 11, "feeds[1].slug")


def test_a_feed_that_no_card_matches_is_a_warning_with_the_value_meant(run, tmp_path):
    site = content_cards_site(tmp_path / "site", FEEDS_YML.replace("{feed: offers}", "{feed: ofers}"))
    result = run("check", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert ('warning: ' in result.stderr and 'cardfeed.yml:5:5: field "feeds[2]": the feed "offers" matches no card: no card has feed: ofers '
            '(did you mean "offers"?); the cards\' feed extras are "deals", "offers"') in result.stderr, result.stderr
    strict = run("check", site, "--now", NOW, "--strict")
    assert strict.returncode != 0


def test_feeds_are_limited_to_200_since_every_page_links_every_feed(run, tmp_path):
    # 10,000 feeds in a 300 KB file would write 10,000 pages of 10,000 links: some 20 GB.
    def many(count):
        return "feeds:\n" + "".join(f"  - slug: f{i}\n    title: F{i}\n    extras: {{feed: offers}}\n" for i in range(count))
    site = content_cards_site(tmp_path / "site", many(10_000))
    started = time.monotonic()
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode != 0 and time.monotonic() - started < 30
    assert 'cardfeed.yml:2:3: field "feeds": lists 10000 feeds, more than the 200 a site may have' in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()
    content_cards_site(site, many(200))
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    assert len(nav(tmp_path / "out" / "f199" / "index.html")) == 200


@pytest.mark.slow
def test_a_feed_of_80000_values_costs_no_more_than_one_of_a_few(run, tmp_path):
    # Campaign ids by the thousand: every card is looked up among them, not compared with each.
    cards = [{"id": f"c{i}", "tp": "short_news", "ca": 1700000000 + i, "ea": -1, "tt": f"Card {i}", "ds": "Text", "e": {"campaign": f"id-{i}"}}
             for i in range(40_000)]
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps({"cards": cards, "full_sync": True}))
    values = ", ".join(f"id-{i * 2}" for i in range(80_000))
    (site / "cardfeed.yml").write_text(f"feeds:\n  - slug: all\n  - slug: even\n    title: Even\n    extras: {{campaign: [{values}]}}\n")
    started = time.monotonic()
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "--page-size", "0", "-q")
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - started < 60
    assert len(page_ids(tmp_path / "out" / "even" / "index.html")) == 20_000


def test_a_static_file_where_a_configured_feed_writes_is_an_error(run, tmp_path):
    site = content_cards_site(tmp_path / "site")
    (site / "static" / "offers").mkdir(parents=True)
    (site / "static" / "offers" / "index.html").write_text("mine")
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode != 0
    assert "would be copied to offers/index.html, where the build writes the front page of the offers feed" in result.stderr


WINDOWS_DEVICE_NAMES = ["con", "nul", "com1", "aux", "lpt9", "prn", "LPT1", "Con", "nul.txt", "aux.html", "com3.x"]


@pytest.mark.parametrize("slug", WINDOWS_DEVICE_NAMES)
def test_a_slug_that_windows_keeps_for_a_device_is_an_error(run, tmp_path, slug):
    """docs/deploy.md: names are chosen so that none is a Windows device name, in any case,
    with or without an extension: such a folder cannot be created, checked out or unzipped there."""
    site = content_cards_site(tmp_path / "site", FEEDS_YML.replace("  - slug: social\n", f"  - slug: {json.dumps(slug)}\n    title: T\n"))
    for command in ("build", "check"):
        result = run(command, site, "-o", tmp_path / "out", "--now", NOW, "-q") if command == "build" else run(command, site, "--now", NOW, "-q")
        assert result.returncode == 1, (slug, result.stdout)
        assert f'cardfeed.yml:11:11: field "feeds[4].slug": {json.dumps(slug)} is a name Windows keeps for a device ({slug.split(".")[0].upper()})' in result.stderr, result.stderr
        assert "choose another slug" in result.stderr
    assert not (tmp_path / "out").exists()


def test_site_files_copied_under_a_windows_device_name_are_errors(run, tmp_path):
    site = content_cards_site(tmp_path / "site")
    for path in ["static/aux/notes.txt", "static/Nul.html", "static/docs/lpt9.json", "assets/images/com1.png", "static/con .txt"]:
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text("x")
    (site / "static" / "console.html").write_text("kept: not a device name")
    for command in ("build", "check"):
        result = run(command, site, "-o", tmp_path / "out", "--now", NOW, "-q") if command == "build" else run(command, site, "--now", NOW, "-q")
        assert result.returncode == 1, result.stdout
        for path, name, device in [("static/aux/notes.txt", "aux", "AUX"), ("static/Nul.html", "Nul.html", "NUL"), ("static/docs/lpt9.json", "lpt9.json", "LPT9"),
                                   ("assets/images/com1.png", "com1.png", "COM1"), ("static/con .txt", "con .txt", "CON")]:
            assert f'site/{path}: would be copied to {path.removeprefix("static/")}, but "{name}" is a name Windows keeps for a device ({device})' in result.stderr, result.stderr
        assert "console" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_serve_follows_edits_of_the_feed_definitions(running, tmp_path):
    site = content_cards_site(tmp_path / "site")
    serve = running("serve", site, "--port", "0")
    port = int(serve.wait_for(r"^Serving .* at http://127\.0\.0\.1:(\d+)/").group(1))

    def fetch(path):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=10) as response:
            return response.read().decode()

    def page_nav(path):
        return NAV.findall(fetch(path))

    assert page_nav("") == ["All", "Offers", "Deals and offers"]
    (site / "cardfeed.yml").write_text(FEEDS_YML.replace("title: Offers", "title: Our offers").replace("hide_empty_feeds: true\n", ""))
    serve.wait_for(r"^Changed cardfeed\.yml: rebuilt")
    assert page_nav("offers/index.html") == ["All", "Our offers", "Deals and offers", "Social"]
    (site / "cardfeed.yml").write_text(FEEDS_YML.replace("  - slug: deals\n    title: Deals and offers\n    extras: {feed: [offers, deals]}\n", ""))
    def served(path):
        try:
            fetch(path)
            return True
        except urllib.error.HTTPError:
            return False

    # A rebuild writes its changed pages first and removes the pages the site no longer has
    # last: wait for both.
    deadline = time.monotonic() + 30
    while ("Deals and offers" in fetch("") or served("deals/index.html")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert page_nav("") == ["All", "Offers"]
    with pytest.raises(urllib.error.HTTPError):
        fetch("deals/index.html")


@pytest.mark.parametrize("slug, what", [("embed", "the placements"), ("pagefind", "the search index")])
def test_the_folders_of_placements_and_search_are_taken_with_or_without_them(run, tmp_path, slug, what):
    """A feed named as the folder a setting fills would meet its files (a placement named index
    wrote embed/index.html over the feed's front page) once the setting is turned on."""
    config = f"feeds:\n  - slug: all\n    title: All\n  - slug: {slug}\n    title: Other\n    category: news\n"
    site = content_cards_site(tmp_path / "site", config)
    result = run("check", site, "--now", NOW)
    assert result.returncode != 0
    assert f'cardfeed.yml:4:11: field "feeds[2].slug": "{slug}" is taken: {slug}/ is the output\'s folder of {what}' in result.stderr, result.stderr
