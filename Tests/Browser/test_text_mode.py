"""`descriptions: text` shows titles and descriptions as Braze's SDKs do: the words a reader sees
(innerText in Chromium) are the card's JSON strings, character for character, for a broad set of
awkward texts; the link's text and address are the card's own. The per-card extra and a rule
switch one card in a Markdown site."""
import json
import subprocess

import pytest

from conftest import NOW, StaticServer, make_driver

# Each: (title, description). Blank text is no text (no element), as on Android, so none is blank.
AWKWARD = [
    ("  two leading spaces", "  two leading spaces,  a  run   of    spaces, and trailing ones   "),
    ("\ttabs\tin\ta title", "\ttab\tseparated\tcolumns\n\t\tindented twice"),
    ("CRLF title", "line one\r\nline two\rline three\nline four\r\n\r\nafter a blank line"),
    ("3*4*5", "3*4*5 = 60, 2*3 = 6"),
    ("*Sale* on **everything**", "*Sale* on **everything**, _really_ __all__ of it ~~not~~"),
    ("- one", "- one\n- two\n* three\n1. first\n2) second"),
    ("<p>First</p><p>Second</p>", "<p>First</p><p>Second</p><br><b>bold?</b> <script>alert(1)</script> <!-- a comment -->"),
    ("&amp; &lt; &gt;", "entities as typed: &amp; &lt; &gt; &quot; &#39; &copy; &#x263A; &nbsp;"),
    ("# Not a heading", "# Not a heading\n> not a quote\n    not code\n```\nnot fenced\n```\n---\n| a | b |\n|---|---|"),
    ("[not a link](https://x.example)", "[not a link](https://x.example) <https://y.example> https://z.example ![no image](a.png)"),
    ("Emoji 👩‍👩‍👧‍👦", "family 👩‍👩‍👧‍👦, flag 🇩🇪, heart ❤️, skin tone 👋🏽, keycap 1️⃣"),
    ("مرحبا بالعالم", "عرض خاص: خصم ٥٠٪ على كل شيء\nالسطر الثاني"),
    ("שלום עולם", "מבצע מיוחד: 50% הנחה\nשורה שנייה with English inside"),
    ("e\u0301 a\u0308 Z\u0351\u0352\u0353", "combining: e\u0301, n\u0303, a\u030a\u0301, Z\u0351\u0352\u0353\u0354"),
    ("a\u200db\u200cc", "zero-width joiner a\u200db, non-joiner a\u200cb, space a\u200bb, NBSP a\u00a0b, word joiner a\u2060b"),
    ("\\*escaped\\*", "backslashes \\*not escaped\\* C:\\path\\to\\file \\\\ two"),
    ("\nnewline first", "\nstarts with a line break, ends with one\n"),
]


def sdk_text(text):
    """What a browser's DOM holds for text written in HTML: CRLF and CR read as LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def build(binary, site, output):
    result = subprocess.run([str(binary), "build", str(site), "--output", str(output), "--now", NOW, "-q"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return output


@pytest.fixture(scope="module")
def text_sites(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("text-mode")
    text = root / "text"
    text.mkdir()
    cards = [{"id": f"t{index}", "tp": "text_announcement", "ca": 1794990000 - index, "tt": title, "ds": description,
              "u": f"https://brewline.example/offer/{index}?a=1&b=2", "dm": f"Link <{index}> & more"}
             for index, (title, description) in enumerate(AWKWARD)]
    (text / "cards.json").write_text(json.dumps({"cards": cards, "full_sync": True}))
    (text / "cardfeed.yml").write_text("title: Text mode\ndescriptions: text\n")

    mixed = root / "mixed"
    mixed.mkdir()
    (mixed / "cards.json").write_text(json.dumps([
        {"id": "by-extra", "tp": "short_news", "ca": 1794990003, "tt": "*By* extra", "ds": "3*4*5\n  - one",
         "e": {"cardfeed_descriptions": "text"}},
        {"id": "by-rule", "tp": "captioned_image", "ca": 1794990002, "tt": "By rule", "ds": "*Sale*   on **everything**"},
        {"id": "markdown", "tp": "text_announcement", "ca": 1794990001, "tt": "Markdown", "ds": "*Sale* on **everything**"},
    ]))
    (mixed / "cardfeed.yml").write_text("title: Mixed\nrules:\n  - match: {id: by-rule}\n    set: {descriptions: text}\n")
    servers = {name: StaticServer(build(cardfeed_bin, site, site / "public")) for name, site in (("text", text), ("mixed", mixed))}
    try:
        yield {name: server.url for name, server in servers.items()}, cards
    finally:
        for server in servers.values():
            server.close()


SHOWN = """
return Array.from(document.querySelectorAll('.card')).map(card => {
  const part = selector => { const e = card.querySelector(selector); return e ? e.innerText : null; };
  const link = card.querySelector('.card__link');
  return {id: card.dataset.cardId, title: part('.card__title'), description: part('.card__description'),
          link: link ? [link.innerText, link.getAttribute('href')] : null,
          titleLinks: Array.from(card.querySelectorAll('.card__title a, .card__description a')).map(a => a.getAttribute('href')),
          elements: card.querySelectorAll('.card__description *').length};
});"""


@pytest.mark.parametrize("width", [390, 1280])
def test_what_a_reader_sees_is_the_cards_text(text_sites, width):
    urls, cards = text_sites
    driver = make_driver(width=width)
    try:
        driver.get(urls["text"] + "index.html")
        shown = {card["id"]: card for card in driver.execute_script(SHOWN)}
    finally:
        driver.quit()
    assert list(shown) == [card["id"] for card in cards]
    for card in cards:
        seen = shown[card["id"]]
        assert seen["title"] == sdk_text(card["tt"]), card["id"]
        assert seen["description"] == sdk_text(card["ds"]), card["id"]
        # ::after adds the arrow after the link's own text.
        assert seen["link"][0].removesuffix(" →") == card["dm"] and seen["link"][1] == card["u"], card["id"]
        assert seen["titleLinks"] == [card["u"]], "the only link is the card's own"
        assert seen["elements"] == 0, "nothing in the description became an element"


def test_the_extra_and_a_rule_switch_one_card_in_a_markdown_site(text_sites):
    urls, _ = text_sites
    driver = make_driver(width=390)
    try:
        driver.get(urls["mixed"] + "index.html")
        shown = {card["id"]: card for card in driver.execute_script(SHOWN)}
    finally:
        driver.quit()
    assert shown["by-extra"]["title"] == "*By* extra" and shown["by-extra"]["description"] == "3*4*5\n  - one"
    assert shown["by-rule"]["description"] == "*Sale*   on **everything**"
    assert shown["markdown"]["description"] == "Sale on everything", "Markdown stays Markdown"
    assert shown["markdown"]["elements"] > 0
