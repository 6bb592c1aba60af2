"""Placements (docs/embedding.md): cardfeed.yml's `placements:` through the binary. The three
forms under embed/ (the HTML fragment, the JSON of the web component, the frame page), their
prefixed classes and absolute links, the rule that keeps a card out, `explain`, the errors with
line and column, hostile cards through all three forms, the same bytes twice, no embed/ without
placements, and a real Hugo site that includes a fragment."""
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

import inert_html
from test_hostile_cards import hostile_cards

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-20"
PLACEMENTS = """
placements:
  home-hero:
    feed: all
    limit: 2
  news-side: {feed: news, limit: 3}
  offers:
    feed: all
    extras: {feed: offers}
    limit: 5
"""
KEEP_OUT = """
  - match: {id: nf-autumn-roast}
    keep_out_of: [news-side]
"""


def with_placements(site: Path, placements=PLACEMENTS, rule=KEEP_OUT):
    yml = site / "cardfeed.yml"
    yml.write_text(yml.read_text() + placements + ("rules:" + rule if rule else ""))
    return site


class Tags(HTMLParser):
    """Every start tag, with its attributes."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(html):
    parser = Tags()
    parser.feed(html)
    return parser.tags


def card_ids(html):
    return [attrs["data-card-id"] for tag, attrs in tags(html) if tag == "article"]


@pytest.fixture()
def built(example_site, run, tmp_path):
    site = with_placements(example_site)
    out = tmp_path / "out"
    result = run("build", site, "--now", NOW, "-o", out)
    assert result.returncode == 0, result.stderr
    return {"site": site, "out": out, "result": result}


def test_every_placement_has_its_three_forms_and_the_shared_files(built):
    embed = built["out"] / "embed"
    assert sorted(p.relative_to(embed).as_posix() for p in embed.rglob("*") if p.is_file()) == [
        "cardfeed-embed.css", "cardfeed-embed.js",
        "home-hero.html", "home-hero.json", "home-hero/index.html",
        "news-side.html", "news-side.json", "news-side/index.html",
        "offers.html", "offers.json", "offers/index.html",
    ]
    assert "and 3 placements" in built["result"].stdout


def test_a_placement_shows_the_first_cards_of_its_feed_in_its_order(built):
    out = built["out"]
    all_ids = card_ids((out / "index.html").read_text())
    news_ids = card_ids((out / "news" / "index.html").read_text())
    assert card_ids((out / "embed" / "home-hero.html").read_text()) == all_ids[:2]
    # The rule keeps nf-autumn-roast out of news-side, not out of the news feed.
    assert "nf-autumn-roast" in news_ids
    assert card_ids((out / "embed" / "news-side.html").read_text()) == [i for i in news_ids if i != "nf-autumn-roast"][:3]
    # The extras filter: only the cards whose feed extra is offers.
    cards = {c["id"]: c for f in [built["site"] / "cards.json", *sorted((built["site"] / "cards").glob("*.json"))]
             for c in (lambda d: d if isinstance(d, list) else d.get("cards", d.get("feed", [])))(json.loads(f.read_text()))}
    offers = card_ids((out / "embed" / "offers.html").read_text())
    assert offers == [i for i in all_ids if (cards[i].get("extras") or cards[i].get("e") or {}).get("feed") == "offers"][:5]


def test_the_fragment_is_prefixed_absolute_and_has_no_document_or_script(built):
    html = (built["out"] / "embed" / "home-hero.html").read_text()
    assert not re.search(r"<(html|head|body|script|style|link)\b", html, re.I)
    for tag, attrs in tags(html):
        for name in ("class", "id"):
            if name in attrs:
                assert all(word.startswith("cardfeed-") for word in attrs[name].split()), (tag, attrs)
        for name in ("href", "src"):
            if name in attrs:
                assert attrs[name].startswith("https://"), (tag, attrs)
        assert "style" not in attrs
    assert 'href="https://brewline.example/cards/card-' in html


def test_the_stylesheet_prefixes_every_class_id_and_custom_property(built):
    css = (built["out"] / "embed" / "cardfeed-embed.css").read_text()
    selectors = re.findall(r"(?m)^([^@{}\n][^{}\n]*)\{", css)
    assert selectors
    for selector in selectors:
        for name in re.findall(r"[.#](-?[A-Za-z_][\w-]*)", selector):
            assert name.startswith("cardfeed-"), selector
        # Nothing that reaches the host page: every rule is the placement's, :host's, or held
        # inside a placement (Tests/Browser/test_embed_scope.py proves it in a browser).
        for part in re.split(r",(?![^()]*\))", selector):  # the commas between selectors, not inside :is(…)
            if re.fullmatch(r"\s*(from|to|[\d.]+%)\s*", part):
                continue  # a step of @keyframes, whose name is prefixed
            assert (re.match(r"\s*(\.cardfeed-(placement\b|frame)|:where\(\.cardfeed-placement\b|:host)", part)
                    or ":where(.cardfeed-placement, .cardfeed-placement *)" in part), selector
    assert "--cf-" not in css
    assert "--cardfeed-surface" in css and not re.search(r"(?m)^\s*(html|body)\b", css)


def test_the_json_carries_the_placement_for_the_component(built):
    data = json.loads((built["out"] / "embed" / "home-hero.json").read_text())
    html = (built["out"] / "embed" / "home-hero.html").read_text()
    assert data["name"] == "home-hero" and data["feed"] == "all" and data["limit"] == 2 and data["lang"] == "en"
    assert [c["id"] for c in data["cards"]] == card_ids(html)
    # Its addresses are relative to the site's root: the component resolves them against the JSON's own.
    assert 'href="cards/card-' in data["html"]
    assert data["html"].replace('href="', 'href="https://brewline.example/').count("https://brewline.example/") >= 2


def test_the_frame_page_links_the_script_and_stylesheet_and_opens_links_on_top(built):
    page = (built["out"] / "embed" / "home-hero" / "index.html").read_text()
    assert '<base href="../../" target="_top">' in page
    scripts = [attrs for tag, attrs in tags(page) if tag == "script"]
    assert scripts == [{"src": "embed/cardfeed-embed.js", "defer": None}]
    assert 'data-cardfeed-frame="home-hero"' in page
    body = page[page.index("<body"):]
    assert card_ids(body) == card_ids((built["out"] / "embed" / "home-hero.html").read_text())
    assert inert_html.problems(body) == []


def test_the_script_is_small(built):
    """At most 3,000 bytes gzipped (`gzip -9c | wc -c`): the minified script, which a host page
    loads before its own, with nothing that evaluates text and one innerHTML, of a <template>."""
    script = (built["out"] / "embed" / "cardfeed-embed.js").read_bytes()
    assert script == (REPO / "embed" / "cardfeed-embed.min.js").read_bytes()
    gzipped = subprocess.run(["gzip", "-9c"], input=script, capture_output=True, check=True).stdout
    assert len(gzipped) <= 3000, f"{len(gzipped)} bytes gzipped"
    assert b"eval(" not in script and b"new Function" not in script
    assert script.count(b".innerHTML=") == 1 and b'createElement("template")' in script


def test_the_minified_script_is_made_from_its_source(tmp_path):
    """embed/cardfeed-embed.min.js is what scripts/minify-embed.sh makes of embed/cardfeed-embed.js
    now: a change to the source without it would not reach the output."""
    copy = tmp_path / "repo"
    for path in ("embed/cardfeed-embed.js", "scripts/minify-embed.sh"):
        (copy / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / path, copy / path)
    result = subprocess.run(["bash", copy / "scripts" / "minify-embed.sh"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + "\n(scripts/setup.sh installs esbuild)"
    assert (copy / "embed" / "cardfeed-embed.min.js").read_bytes() == (REPO / "embed" / "cardfeed-embed.min.js").read_bytes(), \
        "embed/cardfeed-embed.min.js is not made from embed/cardfeed-embed.js: run scripts/minify-embed.sh"


def test_the_build_is_the_same_twice(example_site, run, tmp_path):
    site = with_placements(example_site)
    for name in ("a", "b"):
        assert run("build", site, "--now", NOW, "-o", tmp_path / name).returncode == 0
    assert subprocess.run(["diff", "-r", tmp_path / "a", tmp_path / "b"], capture_output=True).returncode == 0


def test_a_site_without_placements_has_no_embed_folder(example_site, run, tmp_path):
    assert run("build", example_site, "--now", NOW, "-o", tmp_path / "out").returncode == 0
    assert not (tmp_path / "out" / "embed").exists()


def test_explain_names_the_placements_that_show_a_card_and_why_not(built, run):
    text = run("explain", "nf-autumn-roast", built["site"], "--now", NOW)
    assert text.returncode == 0, text.stderr
    assert 'not in the placement news-side: the rule "rule' in text.stdout and "keeps it out (keep_out_of)" in text.stdout
    first = card_ids((built["out"] / "embed" / "home-hero.html").read_text())[0]
    data = json.loads(run("explain", first, built["site"], "--now", NOW, "--diagnostics", "json").stdout)
    assert {"name": "home-hero", "language": None, "file": "embed/home-hero.html", "position": 1, "cards": 2, "why": None} in data["placements"]
    assert f"placement home-hero: embed/home-hero.html, card 1 of 2" in run("explain", first, built["site"], "--now", NOW).stdout


@pytest.mark.parametrize("yml, expected", [
    ("placements:\n  Home_Hero: {feed: all}\n", r'cardfeed.yml:2:3: field "placements.Home_Hero": "Home_Hero" is not a placement name \(did you mean "home-hero"\?\)'),
    ("placements:\n  side:\n    feed: nwes\n", r'cardfeed.yml:3:11: field "placements.side.feed": no feed "nwes" in the site \(did you mean "news"\?\)'),
    ("placements:\n  side: {feed: all, limt: 2}\n", r'cardfeed.yml:2:21: field "placements.side.limt": unknown key \(did you mean "limit"\?\)'),
    ("placements:\n  side: {feed: all, limit: 0}\n", r'cardfeed.yml:2:28: field "placements.side.limit": must be from 1 to 50'),
    ("placements:\n  side: {limit: 2}\n", r'cardfeed.yml:2:9: field "placements.side": has no feed'),
    ("placements:\n  side: {feed: all}\nrules:\n  - match: {id: x}\n    keep_out_of: [sied]\n",
     r'cardfeed.yml:5:19: field "rules\[1\].keep_out_of": no placement "sied" \(did you mean "side"\?\)'),
    ("placment:\n  side: {feed: all}\n", r'cardfeed.yml:1:1: field "placment": unknown key \(did you mean "placements"\?\)'),
])
def test_mistakes_are_errors_at_their_line_and_column(tmp_path, run, yml, expected):
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text('[{"id": "x", "type": "text_announcement", "description": "x", "created": 1}]')
    (site / "cardfeed.yml").write_text(yml)
    result = run("check", site)
    assert result.returncode == 1
    assert re.search(expected, result.stderr), result.stderr


EMPTY_PLACEMENTS = """placements:
  shown: {feed: all}
  news: {feed: news, limit: 3}
  offers:
    feed: all
    extras: {feed: offers}
  kept-out: {feed: announcements}
rules:
  - match: {id: tip-2}
    keep_out_of: [kept-out]
"""


def test_a_placement_that_shows_no_card_is_a_warning_saying_why(tmp_path, run):
    """Its three files would show nothing wherever a host puts them: the warning says which
    placement, where cardfeed.yml names it, and why; under --strict the build stops."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps([
        {"id": "tip-1", "type": "text_announcement", "description": "One", "created": 1790000000, "extras": {"feed": "tips"}},
        {"id": "tip-2", "type": "text_announcement", "description": "Two", "created": 1790000001, "categories": ["announcements"]},
    ]))
    (site / "cardfeed.yml").write_text(EMPTY_PLACEMENTS)
    result = run("build", site, "--now", NOW, "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        'warning: site/cardfeed.yml:3:3: field "placements.news": the placement "news" shows no card: its feed "news" has no card to show,'
        " so embed/news.html, its JSON and its frame page are empty",
        'warning: site/cardfeed.yml:4:3: field "placements.offers": the placement "offers" shows no card: its extras filter (feed: offers)'
        " matches none of the all feed's 2 cards, so embed/offers.html, its JSON and its frame page are empty",
        'warning: site/cardfeed.yml:7:3: field "placements.kept-out": the placement "kept-out" shows no card: the rules\' keep_out_of keep out'
        " the announcements feed's only card, so embed/kept-out.html, its JSON and its frame page are empty",
    ], result.stderr
    strict = run("build", site, "--now", NOW, "-o", tmp_path / "strict", "--strict")
    assert strict.returncode == 1 and "(--strict counts warnings as errors)" in strict.stderr
    assert not (tmp_path / "strict").exists()


def docs_placements_example() -> str:
    """The `placements:` block of docs/embedding.md, marked to add to a site `cardfeed init` made."""
    docs = (REPO / "docs" / "embedding.md").read_text()
    return re.search(r"<!-- adds to a new site -->\n```yaml\n(placements:.*?)```", docs, re.S).group(1)


def test_the_docs_example_placements_build_with_no_warning_under_strict(tmp_path, run):
    """The `placements:` of docs/embedding.md, added to a new site as the docs say, each
    placement showing a card (an empty one would be a warning)."""
    example = docs_placements_example()
    site = tmp_path / "site"
    assert run("init", site).returncode == 0
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + "\n" + example)
    result = run("build", site, "--now", NOW, "--strict", "-o", tmp_path / "out")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    names = re.findall(r"(?m)^  ([a-z0-9-]+):", example)
    assert len(names) == 3
    for name in names:
        assert card_ids((tmp_path / "out" / "embed" / f"{name}.html").read_text()), name


def test_a_card_id_over_256_characters_is_a_warning_naming_the_card(tmp_path, run):
    site = tmp_path / "site"
    site.mkdir()
    long_id = "campaign-" + "x" * 300
    (site / "cards.json").write_text(json.dumps([
        {"id": "short", "type": "text_announcement", "description": "Fine", "created": 1790000000},
        {"id": "y" * 256, "type": "text_announcement", "description": "256 is fine", "created": 1790000000},
        {"id": long_id, "type": "text_announcement", "description": "Too long", "created": 1790000001},
    ]))
    result = run("build", site, "--now", NOW, "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, result.stderr
    assert warnings[0].startswith(f'warning: site/cards.json:1:'), warnings[0]
    assert f'card 3 (id "{long_id[:80]}…"): field "id": 309 characters long, over 256:' in warnings[0]


def test_static_files_cannot_take_a_placements_file(example_site, run, tmp_path):
    site = with_placements(example_site)
    (site / "static" / "embed").mkdir(parents=True)
    (site / "static" / "embed" / "home-hero.html").write_text("mine")
    result = run("build", site, "--now", NOW, "-o", tmp_path / "out")
    assert result.returncode == 1
    assert "would be copied to embed/home-hero.html, where the build writes a file of the placement home-hero" in result.stderr


def test_hostile_cards_through_placements_are_inert_in_every_form(run, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    cards = hostile_cards()
    (site / "cards.json").write_text(json.dumps(cards))
    (site / "cardfeed.yml").write_text("placements:\n  every: {feed: all, limit: 50}\n  news: {feed: news, limit: 50}\n")
    out = tmp_path / "out"
    result = run("build", site, "--now", "1795000000", "--base-url", "https://example.test/", "--page-size", "0", "-o", out)
    assert result.returncode == 0, result.stderr
    for name in ("every", "news"):
        fragment = (out / "embed" / f"{name}.html").read_text()
        assert len(card_ids(fragment)) == 50
        assert inert_html.problems(fragment) == []
        data = json.loads((out / "embed" / f"{name}.json").read_text())
        assert inert_html.problems(data["html"]) == []
        page = (out / "embed" / name / "index.html").read_text()
        assert inert_html.problems(page[page.index("<body"):]) == []
        assert [attrs for tag, attrs in tags(page) if tag == "script"] == [{"src": "embed/cardfeed-embed.js", "defer": None}]
        for html in (fragment, data["html"], page):
            assert all("style" not in attrs for _, attrs in tags(html))
    css = re.sub(r"/\*.*?\*/", "", (out / "embed" / "cardfeed-embed.css").read_text(), flags=re.S)
    css = css.replace('syntax: "<length>"', "")  # the built-in registration of --cardfeed-rem
    assert "<" not in css and "expression(" not in css and "javascript:" not in css


@pytest.mark.skipif(shutil.which("hugo") is None, reason="needs Debian's hugo (scripts/setup.sh installs it)")
def test_a_hugo_site_includes_a_placements_fragment(built, tmp_path):
    """The Hugo example of docs/embedding.md, for real: a shortcode that reads the fragment."""
    hugo = tmp_path / "hugo"
    (hugo / "content").mkdir(parents=True)
    (hugo / "layouts" / "shortcodes").mkdir(parents=True)
    (hugo / "layouts" / "_default").mkdir(parents=True)
    (hugo / "cardfeed").mkdir()
    shutil.copy(built["out"] / "embed" / "home-hero.html", hugo / "cardfeed" / "home-hero.html")
    (hugo / "hugo.toml").write_text('baseURL = "https://shop.example/"\ntitle = "Shop"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n')
    docs = (Path(__file__).resolve().parents[2] / "docs" / "embedding.md").read_text()
    shortcode = re.search(r"<!-- hugo-shortcode -->\n```[a-z-]*\n(.*?)```", docs, re.S).group(1)
    (hugo / "layouts" / "shortcodes" / "cardfeed.html").write_text(shortcode)
    (hugo / "layouts" / "_default" / "single.html").write_text("<!DOCTYPE html><html><body><main>{{ .Content }}</main></body></html>\n")
    (hugo / "content" / "offers.md").write_text('---\ntitle: Offers\n---\nToday:\n\n{{< cardfeed "home-hero" >}}\n')
    result = subprocess.run(["hugo", "--quiet", "-s", str(hugo)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    page = (hugo / "public" / "offers" / "index.html").read_text()
    assert card_ids(page) == card_ids((built["out"] / "embed" / "home-hero.html").read_text())
    assert 'class="cardfeed-placement' in page


def test_two_placements_show_one_card_with_ids_of_their_own_and_its_colours(tmp_path, run):
    site = tmp_path / "site"
    site.mkdir()
    (site / "cards.json").write_text(json.dumps([
        {"id": "coloured", "type": "text_announcement", "created": 2, "description": "Mine", "extras": {"background_color": "#fef3c7"}},
        {"id": "plain", "type": "text_announcement", "created": 1, "description": "Other"},
    ]))
    (site / "cardfeed.yml").write_text("placements:\n  top: {feed: all}\n  side: {feed: all, limit: 2}\n")
    out = tmp_path / "out"
    assert run("build", site, "-o", out, "--now", "10").returncode == 0
    ids = {name: [attrs["id"] for tag, attrs in tags((out / "embed" / f"{name}.html").read_text()) if tag == "article"] for name in ("top", "side")}
    assert ids == {"top": ["cardfeed-top--card-coloured"], "side": ["cardfeed-side--card-coloured", "cardfeed-side--card-plain"]}
    css = (out / "embed" / "cardfeed-embed.css").read_text()
    rule = re.search(r"#cardfeed-top--card-coloured \{([^}]*)\}", css).group(1)
    assert "--cardfeed-surface: #fef3c7;" in rule and "var(--cardfeed-text)" in rule and "--cf-" not in rule
    assert "#cardfeed-side--card-coloured {" in css and "card-plain {" not in css
    # The site's own pages keep their own stylesheet of card colours, as before.
    assert "#card-coloured {" in (out / "assets" / "card-styles.css").read_text()
