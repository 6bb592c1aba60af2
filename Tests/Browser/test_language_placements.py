"""Placements of a site in several languages (examples/multilingual with placements:), in
headless Chromium: a host page on another origin loads the German and the Arabic web component
by their addresses (de/embed/…, ar/embed/…) with the script of one tree; the German one shows
the German cards, in German, with their images; the Arabic one and its frame are right to left;
axe-core finds no violation on the host page at 320 and 1280 px; and `cardfeed serve` previews
each language's placements at /_cardfeed/placements/<language>/. Screenshots go to
$CARDFEED_SCREENSHOTS/placements/."""
import json
import shutil
import subprocess
import time

import pytest

import sites
from conftest import NOW, SCREENSHOTS, make_driver, set_viewport
from test_look import axe_source, axe_violations
from test_placements import SHOWN_CARDS, CrossOriginHandler, QuietHandler, serve as serve_folder

PLACEMENTS = "placements:\n  home-hero: {feed: all, limit: 3}\n  news-side: {feed: news, limit: 2}\n"

HOST_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A shop in three languages</title>
<script src="{cards}/de/embed/cardfeed-embed.js" defer></script>
</head>
<body>
<main>
<h1>Cards in each language</h1>
<h2>Deutsch</h2>
<cardfeed-placement id="de" src="{cards}/de/embed/home-hero.json"></cardfeed-placement>
<h2>العربية</h2>
<cardfeed-placement id="ar" src="{cards}/ar/embed/home-hero.json"></cardfeed-placement>
<h2>English</h2>
<cardfeed-placement id="en" src="{cards}/embed/home-hero.json"></cardfeed-placement>
<h2>In a frame</h2>
<iframe id="frame" src="{cards}/ar/embed/news-side/" title="أخبار" data-cardfeed="news-side" style="width: 100%; border: 0; height: 30rem"></iframe>
</main>
</body>
</html>
"""

SHOWN = """
const host = document.getElementById(arguments[0]);
const box = host.shadowRoot.querySelector('.cardfeed-placement');
const cards = [...host.shadowRoot.querySelectorAll('[data-card-id]')].filter(c => !c.hidden);
return {lang: box.lang, direction: getComputedStyle(box).direction,
  cards: cards.map(c => ({id: c.dataset.cardId, direction: getComputedStyle(c).direction,
    title: (c.querySelector('.cardfeed-card__title') || {}).textContent || null,
    unread: (c.querySelector('.cardfeed-card__unread') || {}).textContent || null,
    images: [...c.querySelectorAll('img')].map(i => i.complete && i.naturalWidth > 0)}))};
"""


@pytest.fixture(scope="module")
def host(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("language-placements")
    site = root / "site"
    shutil.copytree(sites.REPO / "examples" / "multilingual", site, ignore=shutil.ignore_patterns("public"))
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + PLACEMENTS)
    out = root / "out"
    out.mkdir()
    cards_server, cards = serve_folder(out, CrossOriginHandler)
    # Its own base URL, so that the fragments' absolute addresses are this server's.
    result = subprocess.run([str(cardfeed_bin), "build", str(site), "--now", NOW, "-q", "-o", str(out), "--base-url", cards + "/"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    pages = root / "host"
    pages.mkdir()
    (pages / "index.html").write_text(HOST_PAGE.replace("{cards}", cards))
    host_server, url = serve_folder(pages, QuietHandler)
    yield {"url": url + "/", "cards": cards, "out": out}
    host_server.shutdown()
    cards_server.shutdown()


def open_host(host, width=1280):
    driver = make_driver(width=width)
    driver.get(host["url"])
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if all(driver.execute_script(SHOWN_CARDS, i) for i in ("de", "ar", "en")) and driver.execute_script(
                "return [...document.querySelectorAll('cardfeed-placement')].every(p => [...p.shadowRoot.querySelectorAll('img')].every(i => i.complete))"):
            break
        time.sleep(0.1)
    return driver


def expected_ids(host, folder):
    return [card["id"] for card in json.loads((host["out"] / folder / "embed" / "home-hero.json").read_text())["cards"]]


def test_the_german_component_shows_the_german_cards_in_german(host):
    driver = open_host(host)
    try:
        de = driver.execute_script(SHOWN, "de")
        assert de["lang"] == "de" and de["direction"] == "ltr"
        assert [c["id"] for c in de["cards"]] == expected_ids(host, "de") and len(de["cards"]) == 3
        assert "Die Herbströstung ist da" in [c["title"] for c in de["cards"]]
        assert {c["unread"] for c in de["cards"]} == {"Ungelesen"}
        # Its addresses, relative to de/ in the JSON, lead to the site's images.
        assert [ok for c in de["cards"] for ok in c["images"]] and all(ok for c in de["cards"] for ok in c["images"]), de
        en = driver.execute_script(SHOWN, "en")
        assert [c["id"] for c in en["cards"]] == expected_ids(host, "") and en["lang"] == "en"
        assert not set(c["id"] for c in en["cards"]) & set(c["id"] for c in de["cards"])
    finally:
        driver.quit()


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_broken_image_in_a_languages_component_shows_the_placeholder(host, language):
    """The placeholder is the root's assets/, not the language's folder (which has none)."""
    driver = open_host(host)
    try:
        shown = driver.execute_script("""
            const image = document.getElementById(arguments[0]).shadowRoot.querySelector('img');
            image.removeAttribute('srcset');
            image.loading = 'eager';  // a lazy image below the fold would not be fetched
            image.src = arguments[1] + '/nowhere.png';""", language, host["cards"])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            shown = driver.execute_script("""
                const image = document.getElementById(arguments[0]).shadowRoot.querySelector('img');
                return [image.getAttribute('src'), image.complete && image.naturalWidth > 0];""", language)
            if shown[1]:
                break
            time.sleep(0.1)
        assert shown == [host["cards"] + "/assets/images/appboy_cc_noimage_lrg.png", True], shown
    finally:
        driver.quit()


def test_the_arabic_component_and_frame_read_right_to_left(host):
    driver = open_host(host)
    try:
        ar = driver.execute_script(SHOWN, "ar")
        assert ar["lang"] == "ar" and ar["direction"] == "rtl"
        assert [c["id"] for c in ar["cards"]] == expected_ids(host, "ar")
        assert all(c["direction"] == "rtl" for c in ar["cards"]) and {c["unread"] for c in ar["cards"]} == {"غير مقروءة"}
        # Its title starts at the right: it ends nearer the card's right edge than it begins from its left.
        edges = driver.execute_script("""
            const card = document.getElementById('ar').shadowRoot.querySelector('[data-card-id]');
            const title = card.querySelector('.cardfeed-card__title a, .cardfeed-card__title');
            const range = document.createRange(); range.selectNodeContents(title);
            const c = card.getBoundingClientRect(), t = range.getBoundingClientRect();
            return [t.left - c.left, c.right - t.right];""")
        assert edges[1] < edges[0], edges
        driver.switch_to.frame(driver.find_element("id", "frame"))
        frame = driver.execute_script("return [document.documentElement.lang, document.documentElement.dir, getComputedStyle(document.querySelector('[data-card-id]')).direction]")
        driver.switch_to.default_content()
        assert frame == ["ar", "rtl", "rtl"]
        SCREENSHOTS.joinpath("placements").mkdir(parents=True, exist_ok=True)
        for width in (320, 1280):
            set_viewport(driver, width, 900)
            time.sleep(0.3)
            driver.save_screenshot(str(SCREENSHOTS / "placements" / f"languages-host-{width}.png"))
    finally:
        driver.quit()


def test_axe_finds_no_violation_on_the_host_page(host):
    source = axe_source()
    driver = open_host(host)
    driver.set_script_timeout(60)
    found = []
    try:
        for width in (320, 1280):
            set_viewport(driver, width, 900)
            time.sleep(0.3)
            found += [f"host at {width}: {v}" for v in axe_violations(driver, source)]
    finally:
        driver.quit()
    assert found == [], "\n".join(found)


PREVIEW = """
const section = document.querySelector('main > section');
const frame = section.querySelector('iframe').contentDocument;
return {
  fragment: [...section.querySelectorAll(':scope > .cardfeed-placement [data-card-id]')].map(c => c.dataset.cardId),
  component: [...section.querySelector('cardfeed-placement').shadowRoot.querySelectorAll('[data-card-id]')].map(c => c.dataset.cardId),
  frame: frame ? [...frame.querySelectorAll('[data-card-id]')].map(c => c.dataset.cardId) : [],
  images: [...section.querySelectorAll(':scope > .cardfeed-placement img')].every(i => i.complete && i.naturalWidth > 0),
  languages: [...document.querySelectorAll('nav a')].map(a => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')]),
};
"""


def test_serve_previews_each_languages_placements(serve, driver, tmp_path):
    from selenium.webdriver.support.ui import WebDriverWait

    site = tmp_path / "site"
    shutil.copytree(sites.REPO / "examples" / "multilingual", site, ignore=shutil.ignore_patterns("public"))
    (site / "cardfeed.yml").write_text((site / "cardfeed.yml").read_text() + PLACEMENTS)
    server, _ = serve(site)
    driver.get(server.url + "_cardfeed/placements/de")
    assert driver.current_url == server.url + "_cardfeed/placements/de/"
    german = ["herbstroestung", "sommerschlussverkauf", "oeffnungszeiten"]
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(PREVIEW)["component"] == german)
    shown = driver.execute_script(PREVIEW)
    assert shown["fragment"] == german and shown["images"]
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(PREVIEW)["frame"] == german)
    assert shown["languages"] == [["English (en)", "/_cardfeed/placements/", None], ["Deutsch (de)", "/_cardfeed/placements/de/", "page"],
                                  ["العربية (ar)", "/_cardfeed/placements/ar/", None]]
    # A card saved in German shows in the German preview as the site rebuilds.
    cards = site / "cards.json"
    cards.write_text(cards.read_text().replace("Die Herbströstung ist da", "Die Herbströstung ist endlich da"))
    WebDriverWait(driver, 20).until(lambda d: "Die Herbströstung ist endlich da" in d.execute_script(
        "return document.querySelector('cardfeed-placement').shadowRoot.textContent"))
