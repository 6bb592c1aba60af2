"""Braze's REST API content_card object as a card file: read as the card Braze delivers, with
messages that name the REST object's own keys at their place in the file."""
import json
import os
import re

from test_braze_shapes import shown

NOW = 1790000000


def site_with(tmp_path, files, config=""):
    site = tmp_path / "site"
    (site / "cards").mkdir(parents=True)
    for name, content in files.items():
        (site / "cards" / name).write_text(content if isinstance(content, str) else json.dumps(content, indent=2))
    if config:
        (site / "cardfeed.yml").write_text(config)
    return site


def expiry(out, card_id):
    page = (out / "cards" / f"card-{card_id}.html").read_text()
    return page


def test_a_request_body_is_read_as_its_content_card_and_its_recipients_are_a_warning(run, tmp_path):
    body = {"external_user_ids": ["u1"], "recipients": [{"external_user_id": "u2"}], "campaign_id": "c1",
            "messages": {"content_card": {"type": "CLASSIC", "title": "Hello", "description": "World", "web_uri": "https://brewline.example/",
                                          "time_to_live": 3600, "message_variation_id": "mv-1"}}}
    site = site_with(tmp_path, {"send.json": body})
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    cards = shown(tmp_path / "out" / "index.html")
    assert len(cards) == 1
    (card_id, card), = cards.items()
    assert re.fullmatch(r"mv-1-[0-9a-f]{1,16}", card_id), card_id
    assert card["type"] == "text_announcement" and card["title"] == "Hello" and card["url"] == "https://brewline.example/"
    assert result.stderr.splitlines() == [
        'warning: site/cards/send.json:2:3: field "external_user_ids": who the request sends the card to; ignored (the site shows the card to every reader)',
        'warning: site/cards/send.json:5:3: field "recipients": who the request sends the card to; ignored (the site shows the card to every reader)',
        'warning: site/cards/send.json:10:3: field "campaign_id": not read from a request body (its card is messages.content_card); ignored',
    ], result.stderr
    # The same object gives the same id in another build, whatever its keys' order.
    body["messages"]["content_card"] = dict(reversed(list(body["messages"]["content_card"].items())))
    site = site_with(tmp_path / "again", {"send.json": body})
    run("build", site, "-o", tmp_path / "out2", "--now", NOW, "-q")
    assert list(shown(tmp_path / "out2" / "index.html")) == [card_id]


def test_time_to_live_counts_from_send_at_else_now_else_the_file_time(run, tmp_path):
    cards = [
        {"id": "sent", "type": "CLASSIC", "title": "t", "description": "d", "send_at": "2026-09-21T00:00:00Z", "time_to_live": 86400},
        {"id": "from-now", "type": "CLASSIC", "title": "t", "description": "d", "time_to_live": 7200},
        {"id": "expired", "type": "CLASSIC", "title": "t", "description": "d", "expire_at": "2026-09-01T00:00:00Z"},
    ]
    site = site_with(tmp_path, {"cards.json": cards})
    out = tmp_path / "out"
    result = run("build", site, "-o", out, "--now", NOW, "--diagnostics", "json", "-q")
    assert result.returncode == 0, result.stderr
    assert sorted(shown(out / "index.html")) == ["from-now", "sent"]
    # A build after the first card's day: it has expired; the second expires two hours after --now.
    result = run("build", site, "-o", out, "--now", "2026-09-22T00:00:00Z", "-q")
    assert sorted(shown(out / "index.html")) == ["from-now"]
    # Without --now, the file's time: a file last changed long ago holds a card long expired.
    old = 1_700_000_000
    os.utime(site / "cards" / "cards.json", (old, old))
    result = run("build", site, "-o", out, "-q")
    assert result.returncode == 0, result.stderr
    assert shown(out / "index.html") == {}


def test_missing_and_misspelt_keys_are_warnings_at_the_key_with_the_key_meant(run, tmp_path):
    text = """[
  {"type": "BANNER", "imageUrl": "https://cdn.example/b.png", "web_url": "https://x.example", "time_to_live": 60},
  {"type": "CAPTIONED_IMAGE", "title": "t", "image_url": "https://cdn.example/c.png", "expire_at": "2026-12-01T00:00:00Z", "id": "cap"},
  {"type": "CLASIC", "title": "t", "description": "d", "time_to_live": 60, "id": "typo"},
  {"title": "t", "description": "d", "image_url": "https://cdn.example/c.png", "time_to_live": 60, "id": "no-type"},
  {"type": "CLASSIC", "description": "d", "android_uri": "https://x.example/app", "id": "no-title"}
]"""
    site = site_with(tmp_path, {"rest.json": text})
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    banner = [line for line in lines if "card 1 " in line]
    assert any(re.fullmatch(r'warning: site/cards/rest\.json:2:3: card 1 \(id "content-card-[0-9a-f]+"\): field "image_url": missing '
                            r'\(required for banner_image cards\); the placeholder image is shown', line) for line in banner), lines
    assert any(line.startswith("warning: site/cards/rest.json:2:22: card 1") and line.endswith(
        'field "imageUrl": not a key of Braze\'s content_card object (did you mean "image_url"?); ignored') for line in banner), lines
    assert any(line.startswith("warning: site/cards/rest.json:2:63: card 1") and line.endswith(
        'field "web_url": not a key of Braze\'s content_card object (did you mean "web_uri"?); ignored') for line in banner), lines
    assert ('warning: site/cards/rest.json:3:3: card 2 (id "cap"): field "description": missing (required for captioned_image cards); '
            "the card is shown without a description") in lines
    assert ('warning: site/cards/rest.json:4:4: card 3 (id "typo"): field "type": unknown type "CLASIC" (did you mean "CLASSIC"?) '
            "(Braze's API takes BANNER, CAPTIONED_IMAGE, CLASSIC); the card is skipped") in lines
    assert 'warning: site/cards/rest.json:5:3: card 4 (id "no-type"): field "type": missing; the card is skipped' in lines
    assert any(line.startswith('warning: site/cards/rest.json:6:3: card 5 (id "no-title"): field "title": missing (Braze\'s API requires it') for line in lines), lines
    assert ('warning: site/cards/rest.json:6:43: card 5 (id "no-title"): field "android_uri": no web_uri, so the card links to its '
            "android_uri (Braze's Web SDK would show no link)") in lines
    assert ("warning: site/cards/rest.json:6:3: card 5 (id \"no-title\"): has neither expire_at nor time_to_live, one of which Braze's API "
            "requires; the card does not expire") in lines
    cards = shown(tmp_path / "out" / "index.html")
    assert sorted(cards) == sorted([next(i for i in cards if i.startswith("content-card-")), "cap", "no-title"])
    assert cards["no-title"]["url"] == "https://x.example/app"


def test_a_hand_written_card_with_an_id_and_a_type_in_capitals_keeps_its_keys(run, tmp_path):
    site = site_with(tmp_path, {"cards.json": [{"id": "b", "type": "BANNER", "created": NOW - 10, "image": "https://cdn.example/b.png"},
                                               {"id": "s", "type": "short_news", "created": NOW - 20, "description": "d", "extra": {"a": "b"}}]})
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    cards = shown(tmp_path / "out" / "index.html")
    assert cards["b"]["type"] == "banner_image" and cards["b"]["image"] == "https://cdn.example/b.png"
    assert cards["s"]["type"] == "text_announcement"
    assert 'field "extra": unknown key (did you mean "extras"?); ignored' in result.stderr


def test_feeds_by_extras_and_rules_work_on_the_rest_extra(run, tmp_path):
    cards = [{"type": "CLASSIC", "title": "Roast", "description": "d", "extra": {"shelf": "coffee"}, "time_to_live": 3600, "id": "roast"},
             {"type": "CLASSIC", "title": "Tea", "description": "d", "extra": {"shelf": "tea"}, "time_to_live": 3600, "id": "tea"}]
    config = "feeds:\n  - slug: all\n  - slug: coffee\n    title: Coffee\n    extras: {shelf: coffee}\n"
    site = site_with(tmp_path, {"cards.json": cards}, config)
    result = run("build", site, "-o", tmp_path / "out", "--now", NOW, "-q")
    assert result.returncode == 0, result.stderr
    assert list(shown(tmp_path / "out" / "coffee" / "index.html")) == ["roast"]
