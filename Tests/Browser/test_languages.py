"""A site in several languages (examples/multilingual: en at the root, de/ and ar/) in Chromium:
in each language, axe-core finds no violation at 320 and 1280 px and nothing scrolls sideways at
320 px; the Arabic pages are right to left, the switcher at their left; the switcher's links lead
to the same feed and to a card's translation, in that language. Screenshots of each language at
320 and 1280 px go to $CARDFEED_SCREENSHOTS/languages/."""
import pytest

import sites
from conftest import SCREENSHOTS, StaticServer, make_driver, set_viewport
from test_look import OVERFLOW, axe_source, axe_violations, height, load

LANGUAGES = {"en": "", "de": "de/", "ar": "ar/"}


@pytest.fixture(scope="module")
def multilingual(cardfeed_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("languages")
    site = root / "site"
    import shutil
    shutil.copytree(sites.REPO / "examples" / "multilingual", site, ignore=shutil.ignore_patterns("public"))
    output = sites.build(cardfeed_bin, site, site / "public")
    server = StaticServer(output)
    try:
        yield server.url, output
    finally:
        server.close()


def tree_pages(output, folder):
    """The pages of one language's tree, relative to the site's root."""
    base = output / folder if folder else output
    found = sorted(str(p.relative_to(output)) for p in base.rglob("*.html"))
    return [page for page in found if folder or not any(page.startswith(other) for other in LANGUAGES.values() if other)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_violation_and_nothing_scrolls_sideways(multilingual, language):
    url, output = multilingual
    pages = tree_pages(output, LANGUAGES[language])
    assert len(pages) >= 8
    source = axe_source()
    driver = make_driver()
    driver.set_script_timeout(60)
    found = []
    try:
        for width in (320, 1280):
            set_viewport(driver, width, height(width))
            for page in pages:
                load(driver, url + page)
                assert driver.execute_script("return document.documentElement.lang") == language, page
                found += [f"{page} at {width}: {v}" for v in axe_violations(driver, source)]
                if width == 320:
                    found += [f"{page} at 320: {p}" for p in driver.execute_script(OVERFLOW, 320)]
    finally:
        driver.quit()
    assert found == [], "\n".join(found)


SWITCHER = """
const nav = document.querySelector('.language-switch'), title = document.querySelector('.site-title');
const box = e => e.getBoundingClientRect();
return {dir: getComputedStyle(document.documentElement).direction,
        switcher: [box(nav).left, box(nav).right], title: [box(title).left, box(title).right],
        links: [...nav.querySelectorAll('a')].map(a => [a.getAttribute('hreflang'), a.textContent, a.href, a.getAttribute('aria-current')])};
"""


@pytest.mark.parametrize("width", [320, 1280])
def test_the_switcher_sits_beside_the_title_at_the_reading_end(multilingual, width):
    url, _ = multilingual
    driver = make_driver()
    try:
        set_viewport(driver, width, height(width))
        for language, folder in LANGUAGES.items():
            load(driver, url + folder + "index.html")
            seen = driver.execute_script(SWITCHER)
            assert [link[1] for link in seen["links"]] == ["English", "Deutsch", "العربية"]
            assert [link[3] for link in seen["links"]] == [("page" if lang == language else None) for lang in LANGUAGES]
            if language == "ar":
                assert seen["dir"] == "rtl" and seen["switcher"][1] <= seen["title"][0] + 1, seen
            else:
                assert seen["dir"] == "ltr" and seen["title"][1] <= seen["switcher"][0] + 1, seen
    finally:
        driver.quit()


def test_the_switchers_links_lead_to_the_same_feed_and_to_the_cards_translation(multilingual):
    url, _ = multilingual
    driver = make_driver()
    try:
        # A feed's page: the same feed in German.
        load(driver, url + "announcements/index.html")
        driver.find_element("css selector", ".language-switch a[hreflang='de']").click()
        assert driver.current_url == url + "de/announcements/index.html"
        assert driver.execute_script("return document.documentElement.lang") == "de"
        assert "Öffnungszeiten an Feiertagen" in driver.page_source
        # A card's page: its Arabic translation, right to left.
        load(driver, url + "de/cards/card-herbstroestung.html")
        driver.find_element("css selector", ".language-switch a[hreflang='ar']").click()
        assert driver.current_url == url + "ar/cards/card-tahmis-al-kharif.html"
        assert driver.execute_script("return [document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
        # A card with no Arabic translation: the Arabic front page.
        load(driver, url + "de/cards/card-barista-workshop.html")
        driver.find_element("css selector", ".language-switch a[hreflang='ar']").click()
        assert driver.current_url == url + "ar/index.html"
    finally:
        driver.quit()


def test_screenshots_of_each_language(multilingual):
    """For a person to look at: the front page and a card's page of each language, at 320 and 1280 px."""
    url, _ = multilingual
    folder = SCREENSHOTS / "languages"
    folder.mkdir(parents=True, exist_ok=True)
    cards = {"en": "cards/card-autumn-roast.html", "de": "de/cards/card-herbstroestung.html", "ar": "ar/cards/card-tahmis-al-kharif.html"}
    driver = make_driver()
    try:
        for width in (320, 1280):
            set_viewport(driver, width, height(width))
            for language, folder_name in LANGUAGES.items():
                for kind, page in (("front", folder_name + "index.html"), ("card", cards[language])):
                    load(driver, url + page)
                    assert driver.save_screenshot(str(folder / f"{language}-{kind}-{width}.png"))
    finally:
        driver.quit()
