"""`cardfeed explain <card id>` (issue 31, item 8): where a card is shown, or why it is not, in
the build's own words, as text and as one JSON object."""
import json
import re
import textwrap

import pytest

NOW = "2026-09-22"

CONFIG = """\
title: Explained
base_url: https://x.example/news/
timezone: Europe/Berlin
future: hide
page_size: 2
rules:
  - name: Hide internal
    match:
      extras: {audience: internal}
    hide: true
  - name: Pin the offer
    match:
      id: offer
    pin: true
    set:
      title: Offer!
"""

CARDS = """\
[
  {"id": "offer", "type": "text_announcement", "created": 1790000000, "description": "d", "categories": ["news"]},
  {"id": "old", "type": "text_announcement", "created": 1780000000, "description": "d", "expires_at": "2026-09-01T12:00:00"},
  {"id": "gone", "type": "text_announcement", "created": 1780000000, "description": "d",
   "dismissed": true},
  {"id": "secret", "type": "text_announcement", "created": 1780000000, "description": "d", "extras": {"audience": "internal"}},
  {"id": "later", "type": "text_announcement", "created": "2027-01-01", "description": "d"},
  {"id": "ctl", "type": "control", "created": 1},
  {"id": "odd", "type": "weird", "created": 1},
  {"id": "twice", "type": "text_announcement", "created": 5, "description": "first"},
  {"id": "news1", "type": "text_announcement", "created": 1789000000, "description": "d", "categories": ["news"]},
  {"id": "news2", "type": "text_announcement", "created": 1788000000, "description": "d", "categories": ["news"]},
  {"id": "news3", "type": "text_announcement", "created": 1787000000, "description": "d", "categories": ["news"], "t": true}
]
"""

FILES = {
    "cards/b-dup.json": '[{"id": "twice", "type": "text_announcement", "created": 6, "description": "second"}]\n',
    "cards/c-sync.json": textwrap.dedent("""\
        {"cards": [
          {"id": "resent", "tp": "text_announcement", "ca": 1780000000, "ds": "v1"},
          {"id": "dropped", "tp": "text_announcement", "ca": 1780000000, "ds": "x"}
        ]}
        """),
    "cards/d-sync.json": textwrap.dedent("""\
        {"cards": [
          {"id": "dropped",
           "r": true},
          {"id": "resent", "tp": "text_announcement", "ca": 1780000001, "ds": "v2"},
          {"id": "offer", "r": true}
        ]}
        """),
    "cards/e-full.json": '{"full_sync": true, "cards": [\n  {"id": "fresh", "tp": "text_announcement", "ca": 1780000000, "ds": "x"}\n]}\n',
}


@pytest.fixture()
def site(tmp_path):
    root = tmp_path / "s"
    (root / "cards").mkdir(parents=True)
    (root / "cardfeed.yml").write_text(CONFIG)
    (root / "cards.json").write_text(CARDS)
    for path, text in FILES.items():
        (root / path).write_text(text)
    return root


def explain(run, site, id, *extra):
    result = run("explain", id, site, "--now", NOW, "--diagnostics", "json", *extra)
    assert result.returncode in (0, 1), result.stderr
    assert result.stderr == "", result.stderr
    return result.returncode, json.loads(result.stdout)


def only_hiding(answer):
    return [note for note in answer["notes"] if note["hides"]]


def test_a_shown_card_names_each_page_its_place_its_address_and_the_rule_that_pinned_it(run, site):
    status, answer = explain(run, site, "offer")
    assert status == 0 and answer["found"] and answer["shown"]
    assert answer["card"] == {"file": "s/cards.json", "line": 2, "column": 3, "card": 1}
    # The front page, where it is pinned, and the archive page that holds it (it ends its page).
    assert answer["pages"] == [
        {"feed": "all", "front": True, "file": "index.html", "anchor": "card-offer", "position": 1, "cards": 2,
         "url": "https://x.example/news/#card-offer", "pinned": True},
        {"feed": "all", "front": False, "file": "page-offer.html", "anchor": "card-offer", "position": 1, "cards": 1,
         "url": "https://x.example/news/page-offer.html#card-offer", "pinned": True},
        {"feed": "news", "front": True, "file": "news/index.html", "anchor": "card-offer", "position": 1, "cards": 2,
         "url": "https://x.example/news/news/#card-offer", "pinned": True},
        {"feed": "news", "front": False, "file": "news/page-offer.html", "anchor": "card-offer", "position": 1, "cards": 1,
         "url": "https://x.example/news/news/page-offer.html#card-offer", "pinned": True},
    ]
    assert answer["own_page"] == {"file": "cards/card-offer.html", "url": "https://x.example/news/cards/card-offer.html"}
    kinds = {note["kind"]: note for note in answer["notes"]}
    assert kinds["changed by a rule"]["message"].startswith('changed by the rule "Pin the offer" (s/cardfeed.yml:11:5): pins it; sets title')
    assert (kinds["changed by a rule"]["file"], kinds["changed by a rule"]["line"]) == ("s/cardfeed.yml", 11)
    # A sync's removal of a card that no sync sent removes nothing: said, with the entry's place.
    assert kinds["removed"]["hides"] is False and "removes nothing" in kinds["removed"]["message"]
    assert (kinds["removed"]["file"], kinds["removed"]["line"]) == ("s/cards/d-sync.json", 5)

    # An older card, in text: its archive pages, its number on each, and that it is not pinned.
    text = run("explain", "news3", site, "--now", NOW).stdout
    assert 'Card "news3" (s/cards.json:13:3, card 11) is shown on 2 pages, not pinned:' in text, text
    assert "  news feed, archive page: news/page-news3.html#card-news3, card 1 of 1 (https://x.example/news/news/page-news3.html#card-news3)" in text, text
    assert "  its own page: cards/card-news3.html (https://x.example/news/cards/card-news3.html)" in text, text
    assert "a test card (t: true)" in text


@pytest.mark.parametrize("id, kind, words, place", [
    ("old", "expired", "expired at 2026-09-01T12:00:00+02:00 (Europe/Berlin), at or before the build's time, "
                       "2026-09-22T00:00:00+02:00 (Europe/Berlin) (--now)", None),
    ("gone", "dismissed", "dismissed: a card the reader dismissed is not shown", None),
    ("later", "future", "dated 2027-01-01T00:00:00+01:00 (Europe/Berlin), after the build's time", None),
    ("ctl", "control", "a control card (type control)", None),
    ("secret", "hidden by a rule", 'hidden by the rule "Hide internal" (s/cardfeed.yml:7:5)', ("s/cardfeed.yml", 7)),
    ("odd", "skipped", 'skipped (unknown type): field "type": unknown type "weird"', ("s/cards.json", 9)),
    ("dropped", "removed", 'removed by the entry {"id": "dropped", "r": true} at s/cards/d-sync.json:3:4, card 1; '
                           "it deletes the entry of s/cards/c-sync.json:3:3, card 2", ("s/cards/d-sync.json", 3)),
    ("resent", "removed", "s/cards/e-full.json is a full sync (full_sync: true)", ("s/cards/e-full.json", None)),
])
def test_a_card_not_shown_says_why(run, site, id, kind, words, place):
    status, answer = explain(run, site, id)
    assert status == 0 and answer["found"] and not answer["shown"] and answer["pages"] == []
    hiding = only_hiding(answer)
    assert [note["kind"] for note in hiding] == [kind], answer
    assert words in hiding[0]["message"], hiding[0]["message"]
    if place:
        assert (hiding[0]["file"], hiding[0]["line"]) == place


def test_the_other_entries_of_an_id_are_named(run, site):
    _, twice = explain(run, site, "twice")
    assert twice["shown"] and twice["card"]["file"] == "s/cards/b-dup.json"
    duplicate = [note for note in twice["notes"] if note["kind"] == "duplicate"][0]
    assert "s/cards/b-dup.json:1:2, card 1 is kept and s/cards.json:10:3, card 8 dropped (same id as" in duplicate["message"]
    assert "updated more recently" in duplicate["message"]
    # Its warnings, as `check --diagnostics json` gives them.
    assert [d["field"] for d in twice["diagnostics"]] == ["id"]
    _, resent = explain(run, site, "resent")
    replaced = [note for note in resent["notes"] if note["kind"] == "replaced"][0]
    assert "s/cards/c-sync.json:2:3, card 1 was replaced by that of a later sync, s/cards/d-sync.json:4:3, card 2" in replaced["message"]


def test_an_id_no_file_has_gets_the_closest_one_and_status_1(run, site):
    status, answer = explain(run, site, "nwes1")
    assert status == 1 and not answer["found"] and answer["suggestion"] == "news1"
    result = run("explain", "nwes1", site, "--now", NOW)
    assert result.returncode == 1
    assert result.stdout.strip() == 'No card "nwes1" in the site: no card file has an entry with this id (did you mean "news1"?).'
    assert run("explain", "zzzzzzzz", site).stdout.strip() == 'No card "zzzzzzzz" in the site: no card file has an entry with this id.'


def test_now_and_the_site_folder_work_as_for_check(run, site):
    # Before its date (the build's time given as Unix seconds), "old" is shown; run inside the site.
    result = run("explain", "old", "--now", "1780000000", "--diagnostics", "json", cwd=site)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["shown"]
    missing = run("explain", "x", site / "nope")
    assert missing.returncode == 1 and "no site folder" in missing.stderr


def test_help_says_what_it_does(run):
    result = run("explain", "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for words in ["Say where a card is shown, or why it is not.", "<card-id>", "--now <time>", "--diagnostics <format>",
                  'removed by a sync file\'s {"id": X, "r": true}', "Exits with status 0 when the site has an entry of the id"]:
        assert words in text, result.stdout


def test_a_card_none_of_the_sites_own_feeds_shows_is_in_no_feed(run, tmp_path):
    root = tmp_path / "own"
    root.mkdir()
    (root / "cardfeed.yml").write_text("feeds:\n  - slug: offers\n    title: Offers\n    extras: {feed: offers}\n")
    (root / "cards.json").write_text(
        '[{"id": "deal", "type": "classic", "title": "Deal", "description": "x", "created": 1700000000, "extras": {"feed": "offers"}},\n'
        ' {"id": "note", "type": "classic", "title": "Note", "description": "y", "created": 1700000000}]\n')
    status, answer = explain(run, root, "note")
    assert status == 0 and answer["found"] and not answer["shown"]
    assert [note["kind"] for note in only_hiding(answer)] == ["in no feed"], answer
    status, answer = explain(run, root, "deal")
    assert answer["shown"] and [page["feed"] for page in answer["pages"]] == ["offers"]


@pytest.mark.parametrize("options", [(), ("--page-size", "1"), ("--page-size", "0"), ("--page-size", "3", "--base-url", "https://y.example/")])
def test_explain_and_build_agree_on_every_page_with_the_same_options(run, site, tmp_path, options):
    """The command line is applied to cardfeed.yml once, as it is read: explain and build with
    the same options name the same pages and addresses."""
    out = tmp_path / "out"
    assert run("build", site, "-o", out, "--now", NOW, "-q", *options).returncode == 0
    base = options[options.index("--base-url") + 1] if "--base-url" in options else "https://x.example/news/"
    for card in ["offer", "news1", "news3", "fresh"]:
        _, answer = explain(run, site, card, *options)
        assert answer["shown"], card
        for page in answer["pages"]:
            html = (out / page["file"]).read_text()
            ids = re.findall(r'<article class="card[^"]*" id="([^"]*)"', html)
            assert ids[page["position"] - 1] == page["anchor"] and len(ids) == page["cards"], (card, page)
            assert page["url"].startswith(base), page
