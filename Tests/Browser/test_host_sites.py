"""Real host sites include a placement's fragment as docs/embedding.md says, besides the Hugo
site of Tests/EndToEnd/test_placements.py: a Jekyll site (Debian's jekyll) with an include in
a Markdown page, and an MkDocs site with the Material theme (PyPI's mkdocs-material) with
pymdownx's snippets. Each site is built by its own tool; its page has the placement's cards, and
in Chromium each card element has the computed styles it has on a page without a stylesheet of
the same width, light and dark (Tests/Browser/test_fragment_hosts.py compares the same way)."""
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from conftest import REPO, SCREENSHOTS, StaticServer, make_driver, set_viewport
from fragment_hosts import AGGRESSIVE_CSS, build_site, differences, host_pages, placement_styles

DOCS = (REPO / "docs" / "embedding.md").read_text()


def documented(marker):
    """The code block after `<!-- marker -->` in docs/embedding.md."""
    return re.search(rf"<!-- {marker} -->\n```[a-z-]*\n(.*?)```", DOCS, re.S).group(1)


class CardIds(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = []

    def handle_starttag(self, tag, attrs):
        if tag == "article" and dict(attrs).get("data-card-id"):
            self.ids.append(dict(attrs)["data-card-id"])


def card_ids(html):
    parser = CardIds()
    parser.feed(html)
    return parser.ids


@pytest.fixture(scope="module")
def cards(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("host-sites")
    (root / "out").mkdir()
    server = StaticServer(root / "out")
    _, out = build_site(cardfeed_bin, root, server.url)
    fragment = out / "embed" / "every-card.html"
    # The same cards on a page without a stylesheet, whose slot for them takes any width.
    host_pages(out, fragment.read_text(), 640)
    yield {"url": server.url, "out": out, "fragment": fragment, "root": root, "ids": card_ids(fragment.read_text())}
    server.close()


@pytest.fixture(scope="module")
def jekyll_page(cards):
    """The Jekyll site's page that includes the fragment, built once."""
    site = cards["root"] / "jekyll"
    (site / "_includes" / "cardfeed").mkdir(parents=True)
    (site / "_layouts").mkdir()
    shutil.copy(cards["fragment"], site / "_includes" / "cardfeed" / "every-card.html")
    (site / "_config.yml").write_text("title: A shop\nmarkdown: kramdown\n")
    # The shop's own look: every element styled, as a theme does.
    (site / "shop.css").write_text(AGGRESSIVE_CSS)
    (site / "_layouts" / "default.html").write_text(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{{ page.title }}</title>\n'
        '<link rel="stylesheet" href="{{ "/shop.css" | relative_url }}">\n'
        + documented("jekyll-head").replace("https://cards.brewline.example/", cards["url"])
        + "</head>\n<body>\n<main>\n{{ content }}\n</main>\n</body>\n</html>\n")
    include = documented("jekyll-include").replace("home-hero", "every-card")
    (site / "index.md").write_text(f"---\nlayout: default\ntitle: Offers\n---\n# Today at the shop\n\nOur offers:\n\n{include}\nThe end.\n")
    result = subprocess.run(["jekyll", "build", "--quiet", "-s", str(site), "-d", str(cards["out"] / "jekyll")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return "jekyll/index.html"


@pytest.fixture(scope="module")
def mkdocs_page(cards):
    """The MkDocs Material site's page that includes the fragment, built once."""
    site = cards["root"] / "mkdocs"
    (site / "docs").mkdir(parents=True)
    (site / "cardfeed").mkdir()
    shutil.copy(cards["fragment"], site / "cardfeed" / "every-card.html")
    config = documented("mkdocs-config").replace("https://cards.brewline.example/", cards["url"])
    # Material's fonts come from Google; the tests run offline.
    (site / "mkdocs.yml").write_text("site_name: A shop's docs\ntheme:\n  name: material\n  font: false\n" + config)
    snippet = documented("mkdocs-page").replace("home-hero", "every-card")
    (site / "docs" / "index.md").write_text(f"# Today at the shop\n\nOur offers:\n\n{snippet}\nThe end.\n")
    result = subprocess.run(["mkdocs", "build", "--quiet", "--strict", "-f", str(site / "mkdocs.yml"), "-d", str(cards["out"] / "mkdocs")],
                            capture_output=True, text=True, timeout=300, cwd=site)
    assert result.returncode == 0, result.stdout + result.stderr
    return "mkdocs/index.html"


def compare(driver, cards, page):
    """The placement's computed styles on `page` and on the page without a stylesheet, its slot
    as wide as the placement is on `page`."""
    driver.get(cards["url"] + page)
    found = placement_styles(driver)
    width = driver.execute_script("return document.querySelector('.cardfeed-placement').getBoundingClientRect().width")
    driver.get(cards["url"] + "host-plain-640.html")
    driver.execute_script("document.getElementById('slot').style.width = arguments[0] + 'px'", width)
    return differences(placement_styles(driver), found), width


@pytest.mark.skipif(shutil.which("jekyll") is None, reason="needs Debian's jekyll (scripts/setup.sh installs it)")
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_jekyll_site_includes_the_fragment_and_its_cards_look_as_on_a_plain_page(cards, jekyll_page, dark):
    page = jekyll_page
    html = (cards["out"] / page).read_text()
    assert card_ids(html) == cards["ids"] and len(cards["ids"]) > 5
    assert f'href="{cards["url"]}embed/cardfeed-embed.css"' in html
    check_in_browser(cards, page, "jekyll", dark)


@pytest.mark.skipif(shutil.which("mkdocs") is None, reason="needs mkdocs-material from PyPI (scripts/setup.sh installs it)")
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_an_mkdocs_material_site_includes_the_fragment_and_its_cards_look_as_on_a_plain_page(cards, mkdocs_page, dark):
    page = mkdocs_page
    html = (cards["out"] / page).read_text()
    assert card_ids(html) == cards["ids"] and len(cards["ids"]) > 5
    assert f'href="{cards["url"]}embed/cardfeed-embed.css"' in html
    assert 'class="md-content__inner md-typeset"' in html
    check_in_browser(cards, page, "mkdocs", dark)


def check_in_browser(cards, page, name, dark):
    scheme = "dark" if dark else "light"
    for viewport in (320, 1280):
        driver = make_driver(width=viewport, dark=dark)
        try:
            set_viewport(driver, viewport, 900)
            problems, width = compare(driver, cards, page)
            assert width > 200
            assert problems == [], f"{name} at {viewport} px, {scheme}"
            driver.get(cards["url"] + page)
            driver.execute_script("document.querySelector('.cardfeed-placement').scrollIntoView()")
            SCREENSHOTS.joinpath("host-sites").mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(SCREENSHOTS / "host-sites" / f"{name}-{viewport}-{scheme}.png"))
        finally:
            driver.quit()
