"""What Braze's own clients show, CardFeed shows: every card the Web SDK renders, in the order of
a sync for cards of the same time."""
import json
import re
from pathlib import Path


def page_ids(page: Path):
    return re.findall(r'<article class="card[^"]*" id="[^"]*" data-card-id="([^"]*)"', page.read_text())


def card(id, ca, **fields):
    return {"id": id, "tp": "text_announcement", "ca": ca, "ds": f"card {id}", **fields}


def build(run, site, tmp_path, *extra):
    out = tmp_path / "out"
    result = run("build", site, "-o", out, "--now", "1790000000", *extra)
    assert result.returncode == 0, result.stderr
    return out, result


def test_cards_of_the_same_time_keep_the_order_of_the_sync(run, tmp_path):
    site = tmp_path / "site"
    (site / "cards").mkdir(parents=True)
    # Ids in anything but alphabetical order: ordered by id, they would read a, b, m, z.
    sync = {"cards": [card("z", 100), card("b", 100), card("newest", 200), card("m", 100), card("a", 100),
                      card("pinned-old", 1, p=True)], "full_sync": True}
    (site / "cards" / "sync.json").write_text(json.dumps(sync))
    out, _ = build(run, site, tmp_path)
    assert page_ids(out / "index.html") == ["pinned-old", "newest", "z", "b", "m", "a"]


def test_ties_across_files_follow_the_files_path_order(run, tmp_path):
    site = tmp_path / "site"
    (site / "cards" / "b").mkdir(parents=True)
    (site / "cards" / "a").mkdir(parents=True)
    (site / "cards.json").write_text(json.dumps([card("y", 100)]))
    (site / "cards" / "b" / "1.json").write_text(json.dumps([card("c", 100), card("a", 100)]))
    (site / "cards" / "a" / "2.json").write_text(json.dumps([card("d", 100)]))
    out, _ = build(run, site, tmp_path)
    # cards.json first, then cards/a/2.json, then cards/b/1.json; whatever order the folder lists them in.
    assert page_ids(out / "index.html") == ["y", "d", "c", "a"]


def test_a_card_holding_only_its_link_is_shown_with_the_link(run, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps({"cards": [
        {"id": "link-only", "tp": "text_announcement", "ca": 100, "tt": "", "ds": "", "u": "https://brewline.example/offer",
         "dm": "Only a link"},
        {"id": "classic-link", "tp": "short_news", "ca": 90, "tt": "", "ds": "", "i": "", "u": "https://brewline.example/x"},
        {"id": "empty", "tp": "text_announcement", "ca": 80},
    ]}))
    out, result = build(run, site, tmp_path)
    page = (out / "index.html").read_text()
    assert page_ids(out / "index.html") == ["link-only", "classic-link", "empty"]
    article = re.search(r'<article[^>]*data-card-id="link-only".*?</article>', page, re.S).group(0)
    assert '<a class="card__link" href="https://brewline.example/offer">Only a link</a>' in article
    assert "card__title" not in article and "card__description" not in article
    article = re.search(r'<article[^>]*data-card-id="classic-link".*?</article>', page, re.S).group(0)
    assert '<a class="card__link" href="https://brewline.example/x">brewline.example</a>' in article
    # Braze sends "" for a field left empty: no warning for those two; the card with nothing
    # at all is shown as the Web SDK shows it (an empty card), with a warning.
    assert "link-only" not in result.stderr and "classic-link" not in result.stderr
    assert ('card 3 (id "empty"): has no title, description, link or image: shown as an empty card with its date, '
            "as Braze's Web SDK shows it") in result.stderr
    assert 'card 3 (id "empty"): field "ds": missing (required for text_announcement cards)' in result.stderr


def test_a_mail_or_phone_link_without_a_domain_reads_as_the_address_alone(run, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps([
        card("mail", 100, u="mailto:hello@brewline.example?subject=Hi"), card("phone", 99, u="tel:+1-555-0100"),
        card("named", 98, u="mailto:hello@brewline.example", dm="Write to us")]))
    out, _ = build(run, site, tmp_path)
    page = (out / "index.html").read_text()
    links = dict(re.findall(r'<a class="card__link" href="([^"]*)"[^>]*>([^<]*)</a>', page))
    assert links == {"mailto:hello@brewline.example?subject=Hi": "hello@brewline.example", "tel:+1-555-0100": "+1-555-0100",
                     "mailto:hello@brewline.example": "Write to us"}, links


def test_a_blank_link_with_a_domain_is_a_warning_naming_the_card(run, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps([card("blank", 100, u="   ", dm="brewline.example"), card("empty", 99, u="", dm="x.example"),
                                                 card("bare", 98, u="   ")]))
    out, result = build(run, site, tmp_path, "-q")
    assert result.stderr.splitlines() == [
        'warning: site/cards.json:1:76: card 1 (id "blank"): field "u": blank, so the card has no link, and its domain ("brewline.example"), '
        "the link's words, is not shown either; give the card a url, or leave out domain"], result.stderr
    assert "brewline.example" not in (out / "index.html").read_text()
