"""llms.txt (llmstxt.org), the output format added as one entry of OutputFormat's table and one
template: the site's title, its description as the summary, each listed feed and its newest cards
as Markdown links, written as typed (plain text: no HTML escaping)."""
from conftest import write_cards

NOW = "1800000000"


def test_llms_txt_lists_each_feed_and_its_newest_cards_as_typed(run, tmp_path):
    site = write_cards(tmp_path / "s", [
        {"id": "a1", "type": "text_announcement", "created": 1000, "categories": ["news"],
         "title": "Fish & <Chips> for *everyone*", "description": "On **Friday** & <b>Saturday</b>"},
        {"id": "a2", "type": "text_announcement", "created": 2000, "title": "Second", "description": "d"},
    ])
    (site / "cardfeed.yml").write_text('title: "Bean & <Bloom>"\ndescription: "Coffee & *cards*"\nbase_url: https://x.test/shop/\n')
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    assert "sitemap.xml and llms.txt, for https://x.test/shop/." in result.stdout
    text = (site / "public" / "llms.txt").read_text()
    assert text == """# Bean & <Bloom>

> Coffee & *cards*

## Feeds

- [All](https://x.test/shop/): Atom feed https://x.test/shop/feed.xml
- [News](https://x.test/shop/news/): Atom feed https://x.test/shop/news/feed.xml
- [Advertising](https://x.test/shop/advertising/): Atom feed https://x.test/shop/advertising/feed.xml
- [Announcements](https://x.test/shop/announcements/): Atom feed https://x.test/shop/announcements/feed.xml
- [Social](https://x.test/shop/social/): Atom feed https://x.test/shop/social/feed.xml
- [Uncategorized](https://x.test/shop/uncategorized/): Atom feed https://x.test/shop/uncategorized/feed.xml

## All

- [Second](https://x.test/shop/cards/card-a2.html)
- [Fish & <Chips> for *everyone*](https://x.test/shop/cards/card-a1.html)

## News

- [Fish & <Chips> for *everyone*](https://x.test/shop/cards/card-a1.html)

## Uncategorized

- [Second](https://x.test/shop/cards/card-a2.html)
"""
    assert "&amp;" not in text and "&lt;" not in text


def test_without_a_base_url_there_is_no_llms_txt(run, tmp_path):
    site = write_cards(tmp_path / "s", [{"id": "a1", "type": "text_announcement", "created": 1, "title": "T", "description": "d"}])
    assert run("build", site, "--now", NOW).returncode == 0
    assert not (site / "public" / "llms.txt").exists()
    assert run("build", site, "--now", NOW, "--base-url", "https://x.test/").returncode == 0
    assert (site / "public" / "llms.txt").read_text().startswith("# CardFeed\n\n## Feeds\n")


def test_a_site_in_several_languages_names_each_feeds_language(run, tmp_path):
    site = write_cards(tmp_path / "s", [
        {"id": "e", "type": "text_announcement", "created": 1, "title": "Hello", "description": "d", "language": "en"},
        {"id": "d", "type": "text_announcement", "created": 1, "title": "Hallo", "description": "d", "language": "de"},
    ])
    (site / "cardfeed.yml").write_text("base_url: https://x.test/\nlanguages: [en, de]\nfeeds:\n  - slug: all\n")
    result = run("build", site, "--now", NOW)
    assert result.returncode == 0, result.stderr
    text = (site / "public" / "llms.txt").read_text()
    assert "- [All](https://x.test/) (en): Atom feed https://x.test/feed.xml\n" in text
    assert "## Alle (de)\n\n- [Hallo](https://x.test/de/cards/card-d.html)\n" in text, text
    assert not (site / "public" / "de" / "llms.txt").exists()
