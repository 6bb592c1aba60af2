"""Card shapes Braze documents, read as Braze reads them: each fixture of braze_shapes/ is built and
what the site shows is compared, card by card, with what Braze's clients show (its .expected.json,
which says where that was read). A difference passes only when it is a row of docs/cards.md's
differences table. Then each of the readings of that table that is better than Braze's is pinned
to its row, so that the table and the code cannot drift apart."""
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import REPO

SHAPES = Path(__file__).parent / "braze_shapes"
FIXTURES = sorted(p.stem for p in SHAPES.glob("*.json") if not p.stem.endswith(".expected"))
NOW = "1790000000"


def differences_rows():
    """The rows of docs/cards.md's table of differences from the Braze SDKs, as their text."""
    text = (REPO / "docs" / "cards.md").read_text()
    section = text.split("## Differences from the Braze SDKs", 1)[1]
    return [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| ---")][1:]


class Cards(HTMLParser):
    """What each card of a page shows: its type, title, description, image, link and link text."""

    def __init__(self):
        super().__init__()
        self.cards, self.card, self.into = [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "article" and "card" in classes:
            self.card = {"id": a["data-card-id"], "type": a["data-card-type"], "title": None, "description": None,
                         "image": None, "url": None, "linkText": None, "pinned": "data-pinned" in a}
            self.cards.append(self.card)
        elif self.card is None:
            return
        elif tag == "h2" and "card__title" in classes:
            self.into = "title"
        elif tag == "div" and "card__description" in classes:
            self.into = "description"
        elif tag == "img" and "card__image" in classes and "card__image--placeholder" not in classes:
            self.card["image"] = a["src"]
        elif tag == "a" and "card__link" in classes:
            self.card["url"], self.into = a["href"], "linkText"
        elif tag == "a" and self.card["url"] is None and self.card["type"] == "banner_image" and a.get("href", "").startswith("http"):
            self.card["url"] = a["href"]

    def handle_endtag(self, tag):
        if tag in ("h2", "div", "a") and self.into:
            if self.card[self.into] is not None:
                self.card[self.into] = self.card[self.into].strip("\n") if self.into != "linkText" else self.card[self.into]
            self.into = None
        if tag == "article":
            self.card = None

    def handle_data(self, data):
        if self.card is not None and self.into:
            self.card[self.into] = (self.card[self.into] or "") + data


def shown(page: Path):
    parser = Cards()
    parser.feed(page.read_text())
    return {card["id"]: card for card in parser.cards}


def build_fixture(run, tmp_path, name, descriptions=None):
    site = tmp_path / name
    (site / "cards").mkdir(parents=True)
    shutil.copy(SHAPES / f"{name}.json", site / "cards" / f"{name}.json")
    if descriptions:
        (site / "cardfeed.yml").write_text(f"descriptions: {descriptions}\n")
    out = tmp_path / f"{name}-out"
    result = run("build", site, "-o", out, "--now", NOW)
    assert result.returncode == 0, result.stderr
    return out, result


@pytest.mark.parametrize("name", FIXTURES)
def test_each_shape_shows_what_braze_shows_or_a_documented_difference(run, tmp_path, name):
    expected = json.loads((SHAPES / f"{name}.expected.json").read_text())
    out, _ = build_fixture(run, tmp_path, name, expected.get("descriptions"))
    cards = shown(out / "index.html")
    rows = differences_rows()
    assert sorted(cards) == sorted(card["id"] for card in expected["cards"]), f"{name}: {expected['source']}"
    for braze in expected["cards"]:
        ours = cards[braze["id"]]
        fields = [k for k in ("type", "title", "description", "image", "url", "linkText", "pinned") if k in braze]
        unlike = {k: (braze[k], ours[k]) for k in fields if braze[k] != ours[k]}
        if not unlike:
            continue
        # A difference must be named, and be a row of the table.
        assert "differs" in braze, f"{name}, card {braze['id']}: undocumented difference from Braze (Braze, CardFeed): {unlike}"
        assert any(braze["differs"] in row for row in rows), f"no row of the differences table says {braze['differs']!r}"
    if "linkWhiteSpace" in json.dumps(expected):
        css = (out / "assets" / "cardfeed.css").read_text()
        assert ".card--plain-text .card__link" in css.split("white-space: pre-wrap")[0].rsplit("}", 1)[-1]


def test_the_fixtures_cover_every_shape_of_the_issue():
    assert FIXTURES == ["link-text-line-breaks", "mixed-key-styles-feed", "mixed-key-styles-sync", "rest-content-cards",
                        "rest-messages-send", "text-announcement-with-image"]


def test_a_text_announcement_with_an_image_shows_it_in_every_mode_on_its_page_and_in_placements(run, tmp_path):
    site = tmp_path / "site"
    (site / "cards").mkdir(parents=True)
    shutil.copy(SHAPES / "text-announcement-with-image.json", site / "cards" / "sync.json")
    (site / "cardfeed.yml").write_text("placements:\n  side:\n    feed: all\n    limit: 2\n")
    image = 'src="https://cdn.brewline.example/oat.png"'
    for mode in ("markdown", "text"):
        (site / "cardfeed.yml").write_text(f"descriptions: {mode}\nplacements:\n  side:\n    feed: all\n    limit: 2\n")
        out = tmp_path / f"out-{mode}"
        result = run("build", site, "-o", out, "--now", NOW)
        assert result.returncode == 0, result.stderr
        article = re.search(r'<article[^>]*data-card-id="ta-image".*?</article>', (out / "index.html").read_text(), re.S).group(0)
        assert '<div class="card__media card__media--thumb"><img class="card__image" ' + image in article
        assert image in (out / "cards" / "card-ta-image.html").read_text()
        assert image in (out / "embed" / "side.html").read_text()
        plain = re.search(r'<article[^>]*data-card-id="ta-plain".*?</article>', (out / "index.html").read_text(), re.S).group(0)
        assert "card__media" not in plain, "a text announcement without an image shows none, nor the placeholder"
    css = (out / "assets" / "cardfeed.css").read_text()
    assert ".card--text_announcement:has(> .card__media--thumb) { flex-direction: row;" in css


def test_a_site_template_for_text_announcements_without_an_image_is_one_warning_naming_the_cards(run, tmp_path):
    site = tmp_path / "site"
    (site / "templates" / "cards").mkdir(parents=True)
    (site / "cards.json").write_text(json.dumps({"cards": [
        {"id": f"t{n}", "tp": "text_announcement", "ca": 1789990000 - n, "ds": "d", "i": f"https://cdn.example/{n}.png"} for n in range(4)]
        + [{"id": "no-image", "tp": "text_announcement", "ca": 1, "ds": "d"}]}))
    (site / "templates" / "cards" / "text_announcement.mustache").write_text("{{<card}}\n{{/card}}\n")
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "shows no image" in line]
    assert lines == [
        "warning: site/templates/cards/text_announcement.mustache: shows no image, so 4 cards (site/cards.json: card 1 (id \"t0\"), "
        "site/cards.json: card 2 (id \"t1\"), site/cards.json: card 3 (id \"t2\"), …) of type text_announcement with an image show it "
        "nowhere (Braze's Web SDK shows it, as a Classic card); add {{>partials/image}} to the template's media block, or extend "
        "builtin.cards.text_announcement"], result.stderr
    # A template that shows the image, or extends the built-in one, is no warning.
    (site / "templates" / "cards" / "text_announcement.mustache").write_text("{{<builtin.cards.text_announcement}}\n{{/builtin.cards.text_announcement}}\n")
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert "shows no image" not in result.stderr


def test_a_field_in_both_key_styles_is_one_warning_a_file_naming_the_keys_ignored(run, tmp_path):
    out, result = build_fixture(run, tmp_path, "mixed-key-styles-sync")
    lines = [line for line in result.stderr.splitlines() if "both key styles" in line]
    assert lines == [
        'warning: mixed-key-styles-sync/cards/mixed-key-styles-sync.json:2:3: card 1 (id "both") gives a field in both key styles; '
        'a Content Cards sync is read by its short keys, as Braze\'s Web SDK reads it, so "image", "title", "url" are ignored'], result.stderr
    out, result = build_fixture(run, tmp_path, "mixed-key-styles-feed")
    lines = [line for line in result.stderr.splitlines() if "both key styles" in line]
    assert lines == [
        'warning: mixed-key-styles-feed/cards/mixed-key-styles-feed.json:2:3: card 1 (id "nf-both") gives a field in both key styles; '
        'a file that is no Content Cards sync is read by its long keys, as Braze\'s News Feed is, so "tt", "u" are ignored'], result.stderr


def test_a_null_beside_the_other_key_style_is_absent_and_no_warning(run, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps({"cards": [
        {"id": "a", "tp": "text_announcement", "ca": 1789990000, "ds": "d", "u": None, "url": "https://brewline.example/a"}]}))
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode == 0 and "both key styles" not in result.stderr, result.stderr
    assert shown(tmp_path / "out" / "index.html")["a"]["url"] == "https://brewline.example/a"


# The readings of docs/cards.md's differences table that are better than Braze's: the words of
# the row, a card, and what the site shows of it.
READINGS = {
    "in a Content Cards sync, a card's long keys": (
        {"id": "x", "tp": "text_announcement", "ca": 1789990000, "title": "Long title", "ds": "d"}, "title", "Long title"),
    "a type in capitals": ({"id": "x", "tp": "TEXT_ANNOUNCEMENT", "ca": 1789990000, "tt": "Caps", "ds": "d"}, "title", "Caps"),
    "a number written as text (`\"ea\": \"-1\"`)": (
        {"id": "x", "tp": "text_announcement", "ca": 1789990000, "ea": "-1", "tt": "Never expires", "ds": "d"}, "title", "Never expires"),
    "a card whose id a sync sends twice": (
        [{"id": "x", "tp": "text_announcement", "ca": 1789990000, "tt": "first", "ds": "d"},
         {"id": "x", "tp": "text_announcement", "ca": 1789990000, "tt": "second", "ds": "d"}], "title", "second"),
    "spaces in a `tel:` link": (
        {"id": "x", "tp": "text_announcement", "ca": 1789990000, "tt": "t", "ds": "d", "u": "tel:+1 555 0100"}, "url", "tel:+1%20555%200100"),
    "a blank link text (`\"dm\": \"   \"`)": (
        {"id": "x", "tp": "text_announcement", "ca": 1789990000, "tt": "t", "ds": "d", "u": "https://brewline.example/x", "dm": "   "},
        "linkText", "brewline.example"),
    "in Markdown mode, link text keeps its line breaks": (
        {"id": "x", "tp": "text_announcement", "ca": 1789990000, "tt": "t", "ds": "d", "u": "https://brewline.example/x", "dm": "a\n  b"},
        "linkText", "a\n  b"),
}


@pytest.mark.parametrize("row", READINGS)
def test_each_better_reading_is_a_row_of_the_table_and_what_the_site_shows(run, tmp_path, row):
    matching = [line for line in differences_rows() if row in line]
    assert len(matching) == 1, f"docs/cards.md's differences table has {len(matching)} rows saying {row!r}"
    cards, field, value = READINGS[row]
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps({"cards": cards if isinstance(cards, list) else [cards], "full_sync": True}))
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    page = tmp_path / "out" / "index.html"
    assert list(shown(page)) == ["x"], "one card shown"
    assert shown(page)["x"][field] == value
    if "Markdown mode" in row:
        # Written as typed; shown folded, for the stylesheet keeps pre-wrap for text mode alone.
        css = (tmp_path / "out" / "assets" / "cardfeed.css").read_text()
        assert re.search(r"^\.card__link[^{]*\{[^}]*pre", css, re.M) is None
