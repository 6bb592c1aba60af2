"""Broken sites for test_diagnostic_forms.py: each makes the build report some kinds of
diagnostic. A function takes the site's folder and fills it; `ARGS` are extra arguments."""
import json
import os
from pathlib import Path


def fnv1a(text: str) -> int:
    value = 2166136261
    for byte in text.encode():
        value = ((value ^ byte) * 16777619) & 0xFFFFFFFF
    return value


def write(root: Path, files: dict):
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)


def card(id, **fields):
    return {"id": id, "type": "text_announcement", "created": 1780000000, "description": "d", **fields}


def lines(cards):
    """A list of cards, one a line, so that each has a line of its own."""
    return "[\n" + ",\n".join("  " + json.dumps(c) for c in cards) + "\n]\n"


def cards_site(root: Path):
    write(root, {
        "cardfeed.yml": "title: Cards\nfuture: show\n",
        "cards.json": lines([
            card("ok"),
            7,
            {"type": "text_announcement", "created": 1, "description": "no id"},
            card("odd", type="weird"),
            {"id": "notype", "created": 1, "description": "d"},
            {"id": "cap", "type": "captioned_image", "created": 1780000000, "title": "t", "description": "d"},
            card("num", title=5),
            card("flag", viewed="yes"),
            card("typo", titel="t"),
            card("colour", extras={"background_color": "red;"}),
            card("tname", extras={"template": "Bad Name"}),
            card("cat", categories=["news", "nonsense"]),
            card("when", expires_at="someday"),
            card("js", url="javascript:alert(1)"),
            card("pic", type="short_news", image="images/none.png"),
            card("html", description="<b onclick=\"x\">b</b> <script>s</script>"),
            card("links", description="[a](ftp://x.example/a) ![i](images/nope.png)"),
            card("table", description="| a | b |\n|---|---|\n| 1 | 2 |"),
            card("big", description="x" * 2100),
            card("huge", description="y" * 70000),
            {"id": "empty", "type": "short_news", "created": 1},
            {"id": "promo", "type": "cross_promotion_small", "created": 1, "title": "t", "subtitle": "s",
             "caption": "c", "image": "https://x.example/i.png", "price": 1, "url": "https://x.example", "rating": 9},
            card("dup"),
            card("dup"),
            card("later", created=4000000000),
            card("tmpl", extras={"template": "missing"}),
            {"id": "banner", "type": "banner_image", "created": 1, "image": "https://x.example/b.png"},
        ]),
        "cards/broken.json": "[{",
        "cards/empty.json": "  \n",
        "cards/number.json": "42\n",
        "cards/envelopes.json": '{"feed": [], "cards": [{"id": "c", "type": "text_announcement", "created": 1, "description": "d"}]}\n',
        "cards/not-a-list.json": '{"mFeedCards": 3}\n',
        "cards/misspelled.json": '{"feeds": [{"id": "m", "type": "text_announcement"}]}\n',
        "cards/sync.json": '{"full_sync": "perhaps",\n "cards": [{"id": "ok", "r": true}]}\n',
    })
    os.symlink("nowhere.json", root / "cards" / "dangling.json")


def no_cards_site(root: Path):
    write(root, {"cardfeed.yml": "title: Empty\n"})


def yaml_syntax_site(root: Path):
    write(root, {"cardfeed.yml": "title: Bean & Bloom: Coffee\n", "cards.json": lines([card("a")])})


def yaml_duplicate_site(root: Path):
    write(root, {"cardfeed.yml": "title: A\npage_size: 3\ntitle: B\n", "cards.json": lines([card("a", url="myapp://x")])})


def yaml_bomb_site(root: Path):
    text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for name, previous in [("b", "a"), ("c", "b"), ("d", "c"), ("e", "d")]:
        text += f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 10) + "]\n"
    write(root, {"cardfeed.yml": text, "cards.json": lines([card("a")])})


def yaml_not_utf8_site(root: Path):
    write(root, {"cardfeed.yml": b"title: caf\xe9\n", "cards.json": lines([card("a")])})


def config_keys_site(root: Path):
    write(root, {
        "cardfeed.yml": (
            "title: Keys\n"
            "page_sise: 3\n"
            "page_size: many\n"
            "timezone: Mars/Olympus\n"
            "locale: german\n"
            "base_url: not a url\n"
            "links:\n"
            "  new_tab: [\"https://partner.example/offers\"]\n"
            "rules:\n"
            "  - name: Broken\n"
            "    match: {colour: red}\n"
            "    set: {rating: 5}\n"
        ),
        "cards.json": lines([card("a")]),
    })


def rules_site(root: Path):
    # A warning-only site, so that the steps after the rules run too (an anchor shared by two
    # cards is found when the cards are put in order): an id with a space has a hashed anchor,
    # which a plain id can spell.
    write(root, {
        "cardfeed.yml": (
            "title: Rules\n"
            "rules:\n"
            "  - name: Nothing\n"
            "    match: {id: nobody}\n"
            "    pin: true\n"
            "  - name: Bad link\n"
            "    match: {id: a}\n"
            "    set: {url: \"javascript:alert(1)\", image: images/none.png}\n"
        ),
        "cards.json": lines([card("a"), card("x y"), card(f"x-y-{fnv1a('x y'):x}", created=1)]),
    })


def template_syntax_site(root: Path):
    write(root, {
        "cards.json": lines([card("a")]),
        "templates/cards/text_announcement.mustache": "<article>\n{{#title}}{{title}}{{/titel}}\n</article>\n",
        "templates/builtin/page.mustache": "x",
        "templates/cards/latin1.mustache": b"caf\xe9",
    })


def template_lint_site(root: Path):
    write(root, {
        "cards.json": lines([card("a")]),
        "templates/cards/text_announcement.mustache": "<article>\n{{titel}} {{>partials/nope}}\n{{> cards/text_announcement}}\n</article>\n",
        "templates/page.mustache": "{{<builtin.page}}{{$hed}}x{{/hed}}{{/builtin.page}}\n{{#cards}}{{#cards}}{{/cards}}{{/cards}}\n",
    })


def render_budget_site(root: Path):
    inner = "{{#categories}}" * 10 + "x" + "{{/categories}}" * 10
    write(root, {
        "cards.json": lines([card("loop", categories=["news", "advertising", "announcements", "social"])]),
        "templates/cards/text_announcement.mustache": f"<article>{inner}</article>\n",
    })


def render_page_site(root: Path):
    """A page's partial that includes itself while the site has a title: the page's render fails
    at that partial tag."""
    write(root, {
        "cardfeed.yml": "title: Pages\ncard_pages: false\n",
        "cards.json": lines([card("a")]),
        "templates/partials/footer.mustache": "<footer>\n  {{#title}}{{>partials/footer}}{{/title}}\n</footer>\n",
    })


def strings_site(root: Path):
    write(root, {
        "cardfeed.yml": "title: S\nlocale: xx\n",
        "cards.json": lines([card("a")]),
        "strings/xx.json": '{\n  "emptyFeed": "Nichts",\n  "emtpyFeed": "x",\n  "pinned": 3\n}\n',
    })


def strings_syntax_site(root: Path):
    write(root, {"cardfeed.yml": "title: S\nlocale: xx\n", "cards.json": lines([card("a")]), "strings/xx.json": '{\n  "emptyFeed": \n}\n'})


def strings_shape_site(root: Path):
    write(root, {"cardfeed.yml": "title: S\nlocale: xx\n", "cards.json": lines([card("a")]), "strings/xx.json": '\n  ["emptyFeed"]\n'})


def strings_missing_site(root: Path):
    write(root, {"cards.json": lines([card("a")])})


def assets_site(root: Path):
    write(root, {"cards.json": lines([card("a")]), "static/index.html": "mine"})
    (root / "assets").mkdir()
    os.symlink("loop", root / "assets" / "loop")


def output_site(root: Path):
    write(root, {"cards.json": lines([card("a")]), "public/mine.txt": "not cardfeed's"})


def held_back_site(root: Path):
    write(root, {"cardfeed.yml": "title: [\n", "cards.json": lines([card("a", title=5)])})


def feeds_config_site(root: Path):
    write(root, {
        "cardfeed.yml": (
            "title: Feeds\n"
            "descriptions: plain\n"
            "feeds:\n"
            "  - slug: Summer Deals\n"
            "    title: Deals\n"
            "    extras: {feed: deals}\n"
            "  - slug: offers\n"
            "    titel: Offers\n"
            "  - slug: offers\n"
            "    title: Again\n"
            "    category: newz\n"
        ),
        "cards.json": lines([card("a", extras={"feed": "offers"})]),
    })


def feeds_and_text_site(root: Path):
    write(root, {
        "cardfeed.yml": "title: Feeds\nfeeds:\n  - slug: offers\n    title: Offers\n    extras: {feed: ofers}\n",
        "cards.json": lines([
            card("a", language="english", extras={"feed": "offers", "cardfeed_descriptions": "html"}),
            card("b", language="pt_BR"),
        ]),
    })


# name: (fill, extra arguments, command)
SITES = {
    "card-site": (cards_site, ["--now", "1790000000"], "check"),
    "no-cards": (no_cards_site, [], "check"),
    "yaml-syntax": (yaml_syntax_site, [], "check"),
    "yaml-duplicate": (yaml_duplicate_site, [], "check"),
    "yaml-bomb": (yaml_bomb_site, [], "check"),
    "yaml-not-utf8": (yaml_not_utf8_site, [], "check"),
    "config-keys": (config_keys_site, [], "check"),
    "rules": (rules_site, [], "check"),
    "template-syntax": (template_syntax_site, [], "check"),
    "template-lint": (template_lint_site, [], "check"),
    "render-budget": (render_budget_site, [], "check"),
    "render-page": (render_page_site, [], "check"),
    "strings-site": (strings_site, [], "check"),
    "strings-syntax": (strings_syntax_site, [], "check"),
    "strings-shape": (strings_shape_site, [], "check"),
    "strings-missing": (strings_missing_site, ["--locale", "xx"], "check"),
    "assets-site": (assets_site, [], "check"),
    "output": (output_site, [], "build"),
    "held-back": (held_back_site, [], "check"),
    "feeds-config": (feeds_config_site, [], "check"),
    "feeds-and-text": (feeds_and_text_site, [], "check"),
    "base-url": (strings_missing_site, ["--base-url", "nope"], "check"),
    "missing-site": (None, [], "check"),
    "not-a-site": (lambda folder: (folder / "notes.txt").write_text("not a card"), [], "check"),
}
