"""A card's `language` sets `lang` on it, and its direction follows its language or its words;
a right-to-left locale makes right-to-left pages."""
import json
import re

import feedparser


def article(page, id):
    return re.search(rf'<article [^>]*data-card-id="{id}"[^>]*>', page).group(0)


def build(run, tmp_path, cards, config=""):
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "cardfeed.yml").write_text(config)
    (site / "cards.json").write_text(json.dumps(cards, ensure_ascii=False))
    result = run("build", site, "-o", tmp_path / "out", "--now", "1790000000")
    assert result.returncode == 0, result.stderr
    return (tmp_path / "out" / "index.html").read_text(), result


def card(id, **fields):
    return {"id": id, "tp": "text_announcement", "ca": 1789990000, "ds": "Plain words.", **fields}


def test_language_sets_lang_and_direction_in_an_english_feed(run, tmp_path):
    page, result = build(run, tmp_path, [
        card("ar", language="ar", tt="عرض خاص"),
        card("ar-words", tt="عرض خاص", ds="خصم ٢٠٪"),  # no language: its first letter decides
        card("he-tag", language="HE-il", tt="Hebrew by its tag"),
        card("en", language="en-GB", tt="Colour"),
        card("digits-first", tt="2026: שנה טובה"),
        card("plain", tt="Nothing to say"),
        card("bad", language="english", tt="x"),
        card("underscore", language="pt_BR", tt="x"),
        card("ar-latn", language="ar-Latn", tt="Marhaba"),
    ], "base_url: https://x.example/\n")
    assert article(page, "ar").endswith(' lang="ar" dir="rtl">')
    assert article(page, "ar-words").endswith(' data-unread dir="rtl">')
    assert article(page, "he-tag").endswith(' lang="he-IL" dir="rtl">')
    assert article(page, "en").endswith(' lang="en-GB">'), "the page's direction: no dir"
    assert article(page, "digits-first").endswith(' dir="rtl">'), "digits are neutral, the first letter decides"
    assert article(page, "plain").endswith(" data-unread>")
    assert article(page, "ar-latn").endswith(' lang="ar-Latn">'), "the script subtag wins"
    assert article(page, "bad").endswith(" data-unread>") and article(page, "underscore").endswith(" data-unread>")
    assert ('card 7 (id "bad"): field "language": "english" is not a language tag (BCP 47) such as en, ar or pt-BR '
            '(did you mean "en"?); ignored') in result.stderr
    assert '(id "underscore"): field "language": "pt_BR" is not a language tag (BCP 47) such as en, ar or pt-BR (did you mean "pt-BR"?)' in result.stderr
    assert "<html lang=\"en\">" in page
    feed = json.loads((tmp_path / "out" / "feed.json").read_text())
    assert {item["id"].split("#card-")[1]: item.get("language") for item in feed["items"]}["ar"] == "ar"
    atom = feedparser.parse((tmp_path / "out" / "feed.xml").read_bytes())
    assert not atom.bozo
    assert next(e for e in atom.entries if e.id.endswith("#card-ar")).title_detail.language == "ar"


def test_a_right_to_left_locale_makes_right_to_left_pages(run, tmp_path):
    cards = [card(f"c{i}", tt=f"بطاقة {i}", ca=1789990000 - i) for i in range(3)] + [card("en", tt="An English card", ca=1)]
    page, _ = build(run, tmp_path, cards, "locale: ar\npage_size: 2\n")
    assert '<html lang="ar" dir="rtl">' in page
    assert article(page, "c0").endswith(" data-unread>"), "an Arabic card in an Arabic page needs no dir"
    assert '<p class="feed__dates">21 سبتمبر 2026</p>' in page
    assert '<a class="pagination__step" href="page-c2.html" rel="next">الأقدم ←</a>' in page, "c2 ends a page of two cards on average"
    older = (tmp_path / "out" / "page-c2.html").read_text()
    assert '<p class="feed__dates">1 يناير 1970 – 21 سبتمبر 2026</p>' in older
    assert article(older, "en").endswith(' dir="ltr">')
    assert 'rel="prev">→ الأحدث</a>' in older
    page, _ = build(run, tmp_path, cards, "locale: he\n")
    assert '<html lang="he" dir="rtl">' in page and '<p class="feed__dates">1 בינו׳ 1970 – 21 בספט׳ 2026</p>' in page
