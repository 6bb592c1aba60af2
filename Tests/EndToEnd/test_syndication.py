"""Atom, RSS 2.0 and JSON Feed files, read by real parsers, show the same cards as the pages."""
import email.utils
import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import feedparser
import jsonschema
import pytest

from conftest import format_files, write_cards

SCHEMA = json.loads((Path(__file__).parent / "jsonfeed-1.1.schema.json").read_text())
FEEDS = ["", "news/", "advertising/", "announcements/", "social/", "uncategorized/"]


def page_card_ids(page: Path):
    return re.findall(r'<article class="card[^"]*" id="[^"]*" data-card-id="([^"]*)"', page.read_text())


@pytest.fixture()
def built(run, example_site, tmp_path):
    out = tmp_path / "out"
    result = run("build", example_site, "-o", out, "--now", "1795000000", "--page-size", "8")
    assert result.returncode == 0, result.stderr
    assert "Atom (feed.xml), RSS 2.0 (rss.xml) and JSON Feed (feed.json) for every feed, and sitemap.xml and llms.txt, for https://brewline.example/." in result.stdout
    return out


@pytest.mark.parametrize("feed", FEEDS)
def test_atom_feed_parses_and_matches_the_page(built, feed):
    parsed = feedparser.parse((built / feed / "feed.xml").read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    ids = page_card_ids(built / feed / "index.html")
    assert [entry.id.split("#card-")[1] for entry in parsed.entries] == [i for i in ids], "same cards, same order"
    for entry in parsed.entries:
        assert entry.title
        assert entry.link.startswith("https://") or entry.link.startswith("mailto:")
        assert entry.published_parsed and entry.updated_parsed
        assert entry.content[0].type == "text/html"
    assert parsed.feed.title
    assert any(link.rel == "self" for link in parsed.feed.links)


@pytest.mark.parametrize("feed", FEEDS)
def test_rss_feed_has_the_atom_feeds_entries_each_linking_its_card_page(built, feed):
    """RSS 2.0 (for mail tools, chat apps, older readers): the same entries as Atom, in order,
    each with a guid (the Atom entry's id), a link to the card's own page, an RFC 822 pubDate
    at the card's created time, and the same HTML."""
    xml = (built / feed / "rss.xml").read_bytes()
    parsed = feedparser.parse(xml)
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "rss20"
    atom = feedparser.parse((built / feed / "feed.xml").read_bytes())
    assert [entry.id for entry in parsed.entries] == [entry.id for entry in atom.entries]
    assert parsed.feed.title == atom.feed.title and parsed.feed.link == atom.feed.link
    channel = ElementTree.fromstring(xml).find("channel")
    assert channel.find("description").text and channel.find("language").text == "en"
    # RFC 822 dates, in UTC, as RSS requires (email.utils reads exactly that form).
    assert email.utils.parsedate_to_datetime(channel.find("lastBuildDate").text).isoformat() == atom.feed.updated.replace("Z", "+00:00")
    items = channel.findall("item")
    atom_contents = [entry.find("{http://www.w3.org/2005/Atom}content").text
                     for entry in ElementTree.fromstring((built / feed / "feed.xml").read_bytes()).iter("{http://www.w3.org/2005/Atom}entry")]
    assert len(items) == len(atom.entries) == len(atom_contents)
    for item, entry, content in zip(items, atom.entries, atom_contents):
        assert item.find("guid").get("isPermaLink") == "false" and item.find("guid").text == entry.id
        link = item.find("link").text
        assert link == f"https://brewline.example/cards/card-{entry.id.split('#card-')[1]}.html"
        assert (built / link.removeprefix("https://brewline.example/")).is_file(), "each item links to its card's page"
        assert email.utils.parsedate_to_datetime(item.find("pubDate").text).isoformat() == entry.published.replace("Z", "+00:00")
        assert item.find("pubDate").text.endswith(" +0000")
        assert item.find("description").text == content
    assert channel.find("{http://www.w3.org/2005/Atom}link").get("href") == f"https://brewline.example/{feed}rss.xml"


def test_every_feed_with_an_atom_file_has_an_rss_file(built):
    atom = sorted(path.parent for path in built.rglob("feed.xml"))
    assert atom and atom == sorted(path.parent for path in built.rglob("rss.xml"))


@pytest.mark.parametrize("feed", FEEDS)
def test_json_feed_validates_and_matches_the_page(built, feed):
    document = json.loads((built / feed / "feed.json").read_text())
    jsonschema.validate(document, SCHEMA)
    ids = page_card_ids(built / feed / "index.html")
    assert [item["id"].split("#card-")[1] for item in document["items"]] == ids
    assert document["feed_url"] == f"https://brewline.example/{feed}feed.json"


def test_feed_updated_is_the_newest_cards_time_and_builds_are_identical(run, example_site, tmp_path, output_formats):
    first, second = tmp_path / "a", tmp_path / "b"
    assert run("build", example_site, "-o", first, "--now", "1795000000", "-q").returncode == 0
    assert run("build", example_site, "-o", second, "--now", "1795000000", "-q").returncode == 0
    names = format_files(output_formats, ("", "news/"))
    assert {"feed.xml", "news/rss.xml", "sitemap.xml", "llms.txt"} <= set(names)
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    parsed = feedparser.parse((first / "feed.xml").read_bytes())
    newest = max(entry.updated for entry in parsed.entries)
    assert parsed.feed.updated == newest


def test_pages_link_their_feeds(built):
    news = (built / "news" / "index.html").read_text()
    assert '<link rel="alternate" type="application/atom+xml" href="news/feed.xml"' in news
    assert '<link rel="alternate" type="application/rss+xml" href="news/rss.xml"' in news
    assert '<link rel="alternate" type="application/feed+json" href="news/feed.json"' in news


def test_sitemap_lists_every_page(built):
    sitemap = (built / "sitemap.xml").read_text()
    # A folder's index.html is listed as the folder, as web servers serve it.
    pages = sorted(re.sub(r"(^|/)index\.html$", r"\1", p.relative_to(built).as_posix()) for p in built.rglob("*.html"))
    listed = sorted(re.findall(r"<loc>https://brewline\.example/([^<]*)</loc>", sitemap))
    assert listed == pages


def test_cards_without_title_get_a_title_from_their_content(run, tmp_path):
    site = write_cards(tmp_path / "s", [
        {"id": "t1", "type": "text_announcement", "created": 1, "description": "**Opening** hours change on *Monday*, see [here](https://x.test)."},
        {"id": "b1", "type": "banner_image", "created": 2, "image": "https://x.test/b.png", "url": "https://x.test/sale", "domain": "x.test"},
    ])
    result = run("build", site, "--base-url", "https://feeds.example/site", "-q")
    assert result.returncode == 0, result.stderr
    parsed = feedparser.parse((site / "public" / "feed.xml").read_bytes())
    titles = {entry.id.split("#card-")[1]: entry.title for entry in parsed.entries}
    assert titles == {"t1": "Opening hours change on Monday, see here.", "b1": "x.test"}
    assert parsed.feed.links[0].href.startswith("https://feeds.example/site/")


def test_without_a_base_url_no_feed_files_and_the_summary_says_why(run, tmp_path, output_formats):
    site = write_cards(tmp_path / "s", [{"id": "t1", "type": "text_announcement", "created": 1, "description": "d"}])
    result = run("build", site)
    assert result.returncode == 0
    assert "No Atom, RSS 2.0 or JSON Feed files, sitemap.xml or llms.txt: they need the site's address (base_url in cardfeed.yml, or --base-url)." in result.stdout
    for name in format_files([f for f in output_formats if f["needs_base_url"]]):
        assert not (site / "public" / name).exists(), name
    assert 'rel="alternate"' not in (site / "public" / "index.html").read_text()


def test_a_bad_base_url_is_refused(run, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "t1", "type": "text_announcement", "created": 1, "description": "d"}])
    result = run("build", site, "--base-url", "javascript:alert(1)")
    assert result.returncode == 1
    assert 'error: --base-url: "javascript:alert(1)" must be an http or https address, not "javascript:"' in result.stderr


def test_hostile_text_still_gives_well_formed_feeds(run, tmp_path):
    site = write_cards(tmp_path / "h", [{
        "id": "x]]><&\"'", "type": "text_announcement", "created": 1,
        "title": "A \u0001 control & <tag> ]]>", "description": "<script>x</script> & \u0008",
        "url": "https://x.test/?a=1&b=<2>",
    }])
    assert run("build", site, "--base-url", "https://x.test/", "-q").returncode == 0
    parsed = feedparser.parse((site / "public" / "feed.xml").read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.entries[0].title == "A  control & <tag> ]]>"
    rss = feedparser.parse((site / "public" / "rss.xml").read_bytes())
    assert not rss.bozo, rss.get("bozo_exception")
    assert rss.entries[0].title == "A  control & <tag> ]]>"
    jsonschema.validate(json.loads((site / "public" / "feed.json").read_text()), SCHEMA)


def test_a_site_overrides_the_feed_templates(run, tmp_path):
    """feed.atom, feed_entry and sitemap.xml are templates like the pages: ejected, edited,
    rendered; {{name}} in the XML ones escapes for XML, in feed_entry for HTML."""
    site = write_cards(tmp_path / "s", [
        {"id": "t1", "type": "text_announcement", "created": 1, "title": "Tom's <deal>", "description": "Half price."},
    ])
    listing = run("templates", "--site", site).stdout
    for name in ["feed.atom", "feed.rss", "feed_entry", "sitemap.xml"]:
        assert re.search(rf"^{re.escape(name)}\s+built-in$", listing, re.M), listing
        assert run("eject", name, "--site", site).returncode == 0
    templates = site / "templates"
    atom = templates / "feed.atom.mustache"
    atom.write_text(atom.read_text().replace("<title>{{title}}</title>\n<id>{{id}}</id>",
                                             "<title>{{title}}</title>\n<summary>{{title}}</summary>\n<id>{{id}}</id>"))
    (templates / "feed_entry.mustache").write_text("<h2>{{title}}</h2>{{{description}}}")
    sitemap = templates / "sitemap.xml.mustache"
    sitemap.write_text(sitemap.read_text().replace("<url><loc>", "<url><priority>0.5</priority><loc>"))
    rss = templates / "feed.rss.mustache"
    rss.write_text(rss.read_text().replace("<title>{{title}}</title>\n<link>{{url}}</link>", "<title>{{title}}</title>\n<author>{{title}}</author>\n<link>{{url}}</link>"))
    assert re.search(r"^feed\.atom\s+overridden by ", run("templates", "--site", site).stdout, re.M)

    result = run("build", site, "--base-url", "https://x.test/", "-q")
    assert result.returncode == 0, result.stderr
    out = site / "public"
    xml = (out / "feed.xml").read_text()
    assert "<summary>Tom&apos;s &lt;deal&gt;</summary>" in xml
    parsed = feedparser.parse(xml.encode())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.entries[0].summary == "Tom's <deal>"
    # The entry's HTML, escaped for HTML by feed_entry, then as a whole for XML by feed.atom.
    assert '<content type="html">&lt;h2&gt;Tom&amp;#39;s &amp;lt;deal&amp;gt;&lt;/h2&gt;&lt;p&gt;Half price.&lt;/p&gt;\n</content>' in xml
    document = json.loads((out / "feed.json").read_text())
    assert document["items"][0]["content_html"] == "<h2>Tom&#39;s &lt;deal&gt;</h2><p>Half price.</p>\n"
    assert "<url><priority>0.5</priority><loc>https://x.test/</loc>" in (out / "sitemap.xml").read_text()
    # feed.rss writes XML because its format says so, not because of its name.
    assert "<author>Tom&apos;s &lt;deal&gt;</author>" in (out / "rss.xml").read_text()


def test_a_site_rss_template_is_linted_like_the_others(run, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "t1", "type": "text_announcement", "created": 1, "description": "d"}])
    assert run("eject", "feed.rss", "--site", site).returncode == 0
    rss = site / "templates" / "feed.rss.mustache"
    rss.write_text(rss.read_text().replace("<pubDate>{{.}}</pubDate>", "<pubDate>{{pubdate}}</pubDate>"))
    result = run("build", site, "--base-url", "https://x.test/", "--strict", "-q")
    assert result.returncode == 1
    assert re.search(r"feed\.rss\.mustache:\d+:\d+: .*pubdate", result.stderr), result.stderr


def test_absolute_addresses_name_a_folder_not_its_index_html(built):
    """A web server serves news/ for news/index.html: canonical links, og:url, the sitemap and
    the feeds' links to pages and cards name the folder; links between pages keep naming the
    file, so that the site still works from disk; an Atom feed keeps its id."""
    news = (built / "news" / "index.html").read_text()
    assert '<link rel="canonical" href="https://brewline.example/news/">' in news
    assert '<meta property="og:url" content="https://brewline.example/news/">' in news
    assert '<link rel="canonical" href="https://brewline.example/">' in (built / "index.html").read_text()
    # An archive page is a file of its own.
    assert '<link rel="canonical" href="https://brewline.example/page-cc-five-years.html">' in (built / "page-cc-five-years.html").read_text()
    # Relative navigation is unchanged: the files, from the page's <base>.
    assert '<base href="../">' in news and 'href="news/index.html"' in news and 'href="index.html"' in news

    locs = re.findall(r"<loc>([^<]*)</loc>", (built / "sitemap.xml").read_text())
    assert "https://brewline.example/" in locs and "https://brewline.example/news/" in locs
    assert "https://brewline.example/page-cc-five-years.html" in locs
    assert not [loc for loc in locs if loc.endswith("index.html")]

    assert json.loads((built / "news" / "feed.json").read_text())["home_page_url"] == "https://brewline.example/news/"
    # The "all" feed holds the cards of the front page, index.html; each entry's url is the
    # card's own page (test_card_pages.py has the entries of a site without card pages).
    document = json.loads((built / "feed.json").read_text())
    assert document["home_page_url"] == "https://brewline.example/"
    assert [item["id"].split("#card-")[1] for item in document["items"]] == page_card_ids(built / "index.html")
    assert [item["url"] for item in document["items"]] == [
        f"https://brewline.example/cards/card-{card}.html" for card in page_card_ids(built / "index.html")]

    atom = (built / "news" / "feed.xml").read_text()
    assert "<id>https://brewline.example/news/index.html</id>" in atom, "the feed's id stays"
    assert '<link rel="alternate" type="text/html" href="https://brewline.example/news/"/>' in atom
    assert "index.html#" not in atom
